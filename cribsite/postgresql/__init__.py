"""Django's PostgreSQL backend with a pool that tells a busy database from an absent one."""
