"""Documents as text: reading formats into text and its structure, and splitting it into
chunks sized in an embedding model's tokens."""
