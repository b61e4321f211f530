"""Rules as data: fan ids, rulesets (台例), presets and TOML load/save."""
