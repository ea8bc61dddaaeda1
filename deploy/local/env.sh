# shellcheck shell=bash
# Environment for running services and tests against the local stack (deploy/local/stack.sh up).
#   source deploy/local/env.sh
# Every value is a default: a variable already set in the environment wins.
# Per-service DATABASE_URL / GRPC_PORT are set by the service runner from the *_DATABASE_URL and
# *_GRPC_ADDR values below, not here.

# --- all services -----------------------------------------------------------------------------
export NODE_ENV="${NODE_ENV:-development}"
export LOG_LEVEL="${LOG_LEVEL:-info}"
# dev-only key (JWT signing, encryption at rest); >= 32 chars; same default as packages/testing
export SECRET_KEY="${SECRET_KEY:-local-development-secret-key-change-me-0123456789}"
# Seals work-queue task args that carry secrets (identity and notifications only).
export TASK_SEAL_KEY="${TASK_SEAL_KEY:-local-development-task-seal-key-change-me-0123456789}"
# Models' own at-rest key (passed to models as its SECRET_KEY; never the JWT key).
export MODELS_SECRET_KEY="${MODELS_SECRET_KEY:-local-development-models-secret-key-change-me-01234}"
# dev-only trust keys (docs/security.md); same defaults as packages/testing. Never use in production:
# generate with `openssl genpkey -algorithm ed25519` / `openssl pkey -pubout`.
# The gateway alone gets the principal private key; every domain service gets its public key.
export PRINCIPAL_SIGNING_PRIVATE_KEY="${PRINCIPAL_SIGNING_PRIVATE_KEY:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEICgahtlbxfjPTGavt4X8RduEi2gSA6vvBMFWW0ZIllDN
-----END PRIVATE KEY-----"}"
export PRINCIPAL_SIGNING_PUBLIC_KEY="${PRINCIPAL_SIGNING_PUBLIC_KEY:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAW/gzeaSaNNq1RLUMzRZNa0pQEmVEvjwdXAfrgp4v4ZQ=
-----END PUBLIC KEY-----"}"
# Service keys: each caller signs its service tokens with its own Ed25519 key. deploy/local/services.sh
# gives a service only its own SERVICE_SIGNING_PRIVATE_KEY_<NAME> (as SERVICE_SIGNING_PRIVATE_KEY) and
# the SERVICE_PUBLIC_KEY_<CALLER> of its declared callers. operator (operators' tooling) and
# agent-runtime (outside this repository) are callers without a service here.
export SERVICE_SIGNING_PRIVATE_KEY_GATEWAY="${SERVICE_SIGNING_PRIVATE_KEY_GATEWAY:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIIhwxo0ixCxc4acmWEMtrykdNb2vthdp/b6I2e51EYpS
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_GATEWAY="${SERVICE_PUBLIC_KEY_GATEWAY:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAmM60iWUo9F/XYi/ejYFWvQSLLouqMv/Rt/qikZmWFZY=
-----END PUBLIC KEY-----"}"
export SERVICE_SIGNING_PRIVATE_KEY_APIKEYS="${SERVICE_SIGNING_PRIVATE_KEY_APIKEYS:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIMCgCTLyrdOdhKeDQiPCEzFo+2qcH8q28mR96wa0G7Mj
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_APIKEYS="${SERVICE_PUBLIC_KEY_APIKEYS:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAK9qi6Syvo2uzeSbql/1a2Q7YL4rloRAcdN+IqjoW+k8=
-----END PUBLIC KEY-----"}"
export SERVICE_SIGNING_PRIVATE_KEY_NOTIFICATIONS="${SERVICE_SIGNING_PRIVATE_KEY_NOTIFICATIONS:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIB4Li+faUspCiJfJTPL74lv2oMvM2/Z2LQgX9WIut67A
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_NOTIFICATIONS="${SERVICE_PUBLIC_KEY_NOTIFICATIONS:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAM2f/u9Q+1tB/eQ7C3Nv/+Zt/aYorGNbl4vyAZ5BqpzE=
-----END PUBLIC KEY-----"}"
export SERVICE_SIGNING_PRIVATE_KEY_MODELS="${SERVICE_SIGNING_PRIVATE_KEY_MODELS:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIFouL903KmH4TJNP5QA+OCybDVUGbzIrvp+y4cBAB9W1
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_MODELS="${SERVICE_PUBLIC_KEY_MODELS:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAhsMWxbGLKOOi510fwtRQX4m2XlTS8Z44gz6Dn8ySzdY=
-----END PUBLIC KEY-----"}"
export SERVICE_SIGNING_PRIVATE_KEY_WORKFLOWS="${SERVICE_SIGNING_PRIVATE_KEY_WORKFLOWS:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIB/2gaXIBAWvIGdg6NEo3FZ+9AU2GlvUH+HT584/DRfA
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_WORKFLOWS="${SERVICE_PUBLIC_KEY_WORKFLOWS:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAVvBaF0cIihvHU8VqP69GUJ6Z/KpE3QTKQ603eb9tHC8=
-----END PUBLIC KEY-----"}"
export SERVICE_SIGNING_PRIVATE_KEY_OBSERVABILITY="${SERVICE_SIGNING_PRIVATE_KEY_OBSERVABILITY:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIBfWTvE1pDPulnHRWwVInxKuwVn11w26VaUeCJtUIUWs
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_OBSERVABILITY="${SERVICE_PUBLIC_KEY_OBSERVABILITY:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEApnfv8L9I7P0ef/dyPJwYEwZydwHLFozR7ugvALgNANg=
-----END PUBLIC KEY-----"}"
export SERVICE_SIGNING_PRIVATE_KEY_OPERATOR="${SERVICE_SIGNING_PRIVATE_KEY_OPERATOR:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIDR1SmnYBs/J45AJxdLnMGIWireSCGN26w2l35pDYdvh
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_OPERATOR="${SERVICE_PUBLIC_KEY_OPERATOR:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA3zyQZjKIXuUocr0k9+thV96l49a7K6VItH1T5DMcee0=
-----END PUBLIC KEY-----"}"
export SERVICE_SIGNING_PRIVATE_KEY_AGENT_RUNTIME="${SERVICE_SIGNING_PRIVATE_KEY_AGENT_RUNTIME:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIB3wr8xHQvQwnNiXwKdZskFTYzMkAMJOL6Tm3GZT9z2g
-----END PRIVATE KEY-----"}"
export SERVICE_PUBLIC_KEY_AGENT_RUNTIME="${SERVICE_PUBLIC_KEY_AGENT_RUNTIME:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAkvyXQ/VZa1i+BjPtIJeW+Cz0UFHjfrY82tdZzaJokqg=
-----END PUBLIC KEY-----"}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:56379/0}"
export KAFKA_BROKERS="${KAFKA_BROKERS:-127.0.0.1:59092}"

# --- gateway ----------------------------------------------------------------------------------
export HTTP_PORT="${HTTP_PORT:-8080}"
export GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:${HTTP_PORT}}"

# --- gRPC addresses (identity, apikeys, notifications, models, workflows, observability) ------
export IDENTITY_GRPC_ADDR="${IDENTITY_GRPC_ADDR:-127.0.0.1:50061}"
export APIKEYS_GRPC_ADDR="${APIKEYS_GRPC_ADDR:-127.0.0.1:50062}"
export NOTIFICATIONS_GRPC_ADDR="${NOTIFICATIONS_GRPC_ADDR:-127.0.0.1:50063}"
export MODELS_GRPC_ADDR="${MODELS_GRPC_ADDR:-127.0.0.1:50064}"
export WORKFLOWS_GRPC_ADDR="${WORKFLOWS_GRPC_ADDR:-127.0.0.1:50065}"
export OBSERVABILITY_GRPC_ADDR="${OBSERVABILITY_GRPC_ADDR:-127.0.0.1:50066}"
# The sandbox worker (workflows image, PROCESS_ROLE=sandbox) serves only grpc.health.v1 here.
export SANDBOX_WORKER_GRPC_ADDR="${SANDBOX_WORKER_GRPC_ADDR:-127.0.0.1:50067}"

# --- metrics: each process serves GET /metrics on its own port (docs/operations.md) -----------
# A second set of services on one host gives its own (0: any free port, logged at start).
export GATEWAY_METRICS_PORT="${GATEWAY_METRICS_PORT:-9470}"
export IDENTITY_METRICS_PORT="${IDENTITY_METRICS_PORT:-9471}"
export APIKEYS_METRICS_PORT="${APIKEYS_METRICS_PORT:-9472}"
export NOTIFICATIONS_METRICS_PORT="${NOTIFICATIONS_METRICS_PORT:-9473}"
export MODELS_METRICS_PORT="${MODELS_METRICS_PORT:-9474}"
export WORKFLOWS_METRICS_PORT="${WORKFLOWS_METRICS_PORT:-9475}"
export OBSERVABILITY_METRICS_PORT="${OBSERVABILITY_METRICS_PORT:-9476}"
export SANDBOX_WORKER_METRICS_PORT="${SANDBOX_WORKER_METRICS_PORT:-9477}"

# --- Prometheus and Jaeger of the local stack (deploy/local/stack.sh; docs/operations.md) -------
# Prometheus scrapes the eight ports above (the sandbox worker's too) every 2 s; the services export every trace (ratio 1, so
# a test finds the trace of the request it made) to Jaeger over OTLP/HTTP.
export PROMETHEUS_URL="${PROMETHEUS_URL:-http://127.0.0.1:59090}"
export JAEGER_QUERY_URL="${JAEGER_QUERY_URL:-http://127.0.0.1:56686}"
export OTEL_EXPORTER_OTLP_ENDPOINT="${OTEL_EXPORTER_OTLP_ENDPOINT:-http://127.0.0.1:54318}"
export OTEL_TRACES_SAMPLER_ARG="${OTEL_TRACES_SAMPLER_ARG:-1}"

# --- PostgreSQL 127.0.0.1:55432, superuser platform/platform: one database per service ---------
export POSTGRES_ADMIN_URL="${POSTGRES_ADMIN_URL:-postgres://platform:platform@127.0.0.1:55432/postgres}"
export IDENTITY_DATABASE_URL="${IDENTITY_DATABASE_URL:-postgres://platform:platform@127.0.0.1:55432/identity}"
export APIKEYS_DATABASE_URL="${APIKEYS_DATABASE_URL:-postgres://platform:platform@127.0.0.1:55432/apikeys}"
export MODELS_DATABASE_URL="${MODELS_DATABASE_URL:-postgres://platform:platform@127.0.0.1:55432/models}"
export WORKFLOWS_DATABASE_URL="${WORKFLOWS_DATABASE_URL:-postgres://platform:platform@127.0.0.1:55432/workflows}"
export OBSERVABILITY_DATABASE_URL="${OBSERVABILITY_DATABASE_URL:-postgres://platform:platform@127.0.0.1:55432/observability}"

# --- MongoDB wire protocol (FerretDB 127.0.0.1:57017) -----------------------------------------
export MONGO_URL="${MONGO_URL:-mongodb://127.0.0.1:57017/notifications}"

# --- integration tests (packages/testing) ------------------------------------------------------
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://platform:platform@127.0.0.1:55432/platform_test}"
export TEST_MONGO_URL="${TEST_MONGO_URL:-mongodb://127.0.0.1:57017/platform_test}"
