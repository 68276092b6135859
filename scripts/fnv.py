"""64-bit FNV-1a, as Sources/ContactParser/Model/HashedTable.swift computes it: the keys of the
line-role weights (train_roles.py) and of the name lists (generate_name_data.py)."""


def fnv1a64(text):
    """64-bit FNV-1a of the UTF-8 bytes."""
    h = 0xcbf29ce484222325
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h
