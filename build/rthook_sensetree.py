"""PyInstaller runtime hook: the frozen app never reaches the network for model files.

Why: the embedding model ships inside the bundle; Hugging Face libraries would otherwise try the Hub
for metadata when a lookup misses, which is slow offline and a surprise online. A person can still
override either variable in their environment.
"""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
