"""The ingest rules for the registered spaces: which spaces the server embeds in (and
with which model), and the tokenizer and input limit that size split chunks (those of
the first space with an embedder, in registry order; the default space comes first)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from app.embed.config import EmbedderConfig
from app.embed.http import DEFAULT_MAX_TOKENS
from app.embed.local import model_source
from app.embedders import embedders_of
from app.ingest.prepare import IngestRules
from app.settings import Settings
from app.spaces import SpaceInfo
from app.text.tokens import model_files


def _sizing_model(config: EmbedderConfig) -> tuple[str | None, int]:
    if config.kind == "openai":
        return None, config.max_tokens or DEFAULT_MAX_TOKENS
    tokenizer, limit = model_files(model_source(config))
    return tokenizer, config.max_tokens or limit or DEFAULT_MAX_TOKENS


def rules_for(
    settings: Settings, spaces: dict[str, SpaceInfo], now: datetime | None = None
) -> IngestRules:
    rules = IngestRules.from_settings(settings, now)
    embedders = embedders_of(settings)
    configs = {name: embedders.config_for(space) for name, space in spaces.items()}
    models = {name: config.model_name for name, config in configs.items() if config}
    first = next((config for config in configs.values() if config), None)
    splitting = rules.splitting
    if first is not None:
        tokenizer, limit = _sizing_model(first)
        splitting = replace(splitting, tokenizer_file=tokenizer, model_max_tokens=limit,
                            context_prefix=first.document_prefix)  # fmt: skip
    return replace(rules, splitting=splitting, server_models=models)
