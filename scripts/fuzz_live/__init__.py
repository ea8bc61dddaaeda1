"""Live state for the API fuzzer's hooks (scripts/fuzz_hooks.py); see suppliers.py."""
