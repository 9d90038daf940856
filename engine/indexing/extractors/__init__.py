"""Format readers behind `engine.indexing.extract`: one small function per file format.

They live apart from the dispatcher so each stays small and readable; callers use `extract()` only,
which adds the error translation, truncation note and binary sniffing around them.
"""
