"""The stored resources besides chunks' ranking: collections, documents, spaces, profiles,
goals, signals."""
