"""The keyword index: BM25 over chunk text in DuckDB (read side, writes, point writes, healing, tokens)."""
