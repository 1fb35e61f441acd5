"""Admin accounts and sessions: who may change the catalog."""
