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
# generate with `openssl genpkey -algorithm ed25519` / `openssl pkey -pubout` and a random secret.
# The gateway alone gets the private key; every service gets SERVICE_AUTH_KEY and the public key
# (deploy/local/services.sh drops SECRET_KEY and the private key for the services that must not hold them).
export PRINCIPAL_SIGNING_PRIVATE_KEY="${PRINCIPAL_SIGNING_PRIVATE_KEY:-"-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEICgahtlbxfjPTGavt4X8RduEi2gSA6vvBMFWW0ZIllDN
-----END PRIVATE KEY-----"}"
export PRINCIPAL_SIGNING_PUBLIC_KEY="${PRINCIPAL_SIGNING_PUBLIC_KEY:-"-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAW/gzeaSaNNq1RLUMzRZNa0pQEmVEvjwdXAfrgp4v4ZQ=
-----END PUBLIC KEY-----"}"
export SERVICE_AUTH_KEY="${SERVICE_AUTH_KEY:-local-development-service-auth-key-change-me-0123456789}"
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
