-- Runs once, when the postgres container starts on an empty data directory
-- (/docker-entrypoint-initdb.d), as the superuser POSTGRES_USER, connected to POSTGRES_DB.
-- The server is started with shared_preload_libraries=pg_stat_statements (docker-compose.yml).

-- Installed in template1 first so every database created afterwards (the five below, and any a
-- test creates later) has the pg_stat_statements view as well.
\connect template1
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;

\connect postgres
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;

-- One database per service that owns relational data (notifications uses MongoDB).
CREATE DATABASE identity;
CREATE DATABASE apikeys;
CREATE DATABASE models;
CREATE DATABASE workflows;
CREATE DATABASE observability;
