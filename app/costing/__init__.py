"""The pure cost model of DOMAIN.md: dataclasses in, USD out. No web, database or template imports."""
