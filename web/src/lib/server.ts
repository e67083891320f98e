// What the page needs from the server before it can search: the defaults a search uses,
// its sample questions (with vectors), whether it embeds query text or checks keys, its
// profiles and collections.

import type { Collection, Examples, Profile, SearchDefaults } from "../api/client";
import { collections, examples, profiles, searchDefaults } from "../api/client";

export const KEY_STORAGE = "ragsearch.key"; // sessionStorage: forgotten with the tab

export interface ServerInfo {
  defaults: SearchDefaults;
  samples: Examples["queries"];
  sampleSpace: string | null; // null: the default space
  embedder: string | null;
  keysRequired: boolean;
  recencyFunctions: string[];
  profiles: Profile[];
  collections: Collection[];
}

export async function loadServerInfo(apiKey: string): Promise<ServerInfo> {
  const caller = { apiKey };
  const [defaults, sampleInfo, profileList, collectionList] = await Promise.all([
    searchDefaults(caller),
    examples(caller),
    profiles(caller),
    collections(caller),
  ]);
  return {
    defaults,
    samples: sampleInfo.queries,
    sampleSpace: sampleInfo.is_default_space ? null : sampleInfo.space,
    embedder: sampleInfo.embedder,
    keysRequired: sampleInfo.keys_required,
    recencyFunctions: sampleInfo.recency_functions,
    profiles: profileList.profiles.filter((p) => p.name !== "default"),
    collections: collectionList.collections,
  };
}

export function modeHint(info: ServerInfo | null): string {
  if (!info) return "";
  if (info.embedder) {
    return `Questions are embedded on the server (${info.embedder}) and searched by keywords and vectors.`;
  }
  return "This server has no query embedder: typed questions are searched by keywords only; the suggested questions carry vectors.";
}

// The server's default decay in words, e.g. "inverse, 1 day".
export function recencyText(recency: SearchDefaults["recency"]): string {
  const days = recency.half_life_days ?? recency.scale_days;
  const name = recency.function ?? "inverse";
  if (days === null || days === undefined) return name;
  return `${name}, ${days} day${days === 1 ? "" : "s"}`;
}
