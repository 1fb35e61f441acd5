"""The pure cost model of docs/cost-model.md: dataclasses in, USD out. No web, database or template imports."""
