// What the page needs from the server before it can search: its sample questions (with
// vectors), whether it embeds query text, its profiles and collections.

import { collections, examples, profiles } from "./api.js";

export const KEY_STORAGE = "ragsearch.key"; // sessionStorage: forgotten with the tab

export async function loadServerInfo(apiKey) {
  const [sampleInfo, profileList, collectionList] = await Promise.all([
    examples(apiKey),
    profiles(apiKey),
    collections(apiKey),
  ]);
  return {
    samples: sampleInfo.queries,
    sampleSpace: sampleInfo.is_default_space ? null : sampleInfo.space,
    embedder: sampleInfo.embedder,
    recencyFunctions: sampleInfo.recency_functions,
    profiles: profileList.profiles.filter((p) => p.name !== "default"),
    collections: collectionList.collections,
  };
}

export function modeHint(info) {
  if (!info) return "";
  if (info.embedder) {
    return `Questions are embedded on the server (${info.embedder}) and searched by keywords and vectors.`;
  }
  return "This server has no query embedder: typed questions are searched by keywords only; the suggested questions carry vectors.";
}
