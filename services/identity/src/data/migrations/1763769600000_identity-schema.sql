-- Up Migration
-- The identity service's schema: accounts, roles and permissions, teams, site settings, audit,
-- one-time tokens, TOTP backup codes and SSO. Case-insensitive names via citext.
CREATE EXTENSION IF NOT EXISTS citext;

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username citext NOT NULL UNIQUE,
  email citext NOT NULL UNIQUE,
  -- NULL for accounts created through SSO that never set a password.
  password_hash text,
  locale text,
  is_active boolean NOT NULL DEFAULT true,
  is_superuser boolean NOT NULL DEFAULT false,
  email_verified boolean NOT NULL DEFAULT false,
  approval_status text NOT NULL DEFAULT 'approved' CHECK (approval_status IN ('pending', 'approved')),
  failed_login_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  password_changed_at timestamptz,
  force_password_change boolean NOT NULL DEFAULT false,
  totp_enabled boolean NOT NULL DEFAULT false,
  -- SecretBox ciphertext (AES-256-GCM under a key derived from SECRET_KEY).
  totp_secret_enc text,
  totp_pending_secret_enc text,
  last_login_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE permissions (
  code text PRIMARY KEY,
  description text NOT NULL DEFAULT '',
  is_system boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE roles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name citext NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  is_system boolean NOT NULL DEFAULT false,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- At most one default role.
CREATE UNIQUE INDEX roles_one_default ON roles (is_default) WHERE is_default;

CREATE TABLE role_permissions (
  role_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  permission_code text NOT NULL REFERENCES permissions (code) ON DELETE CASCADE,
  PRIMARY KEY (role_id, permission_code)
);

CREATE TABLE user_roles (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role_id uuid NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
  PRIMARY KEY (user_id, role_id)
);
CREATE INDEX user_roles_role ON user_roles (role_id);

CREATE TABLE teams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name citext NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX teams_one_default ON teams (is_default) WHERE is_default;

CREATE TABLE team_members (
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id);
-- Exactly one owner per team is enforced by the use cases; at most one here.
CREATE UNIQUE INDEX team_members_one_owner ON team_members (team_id) WHERE role = 'OWNER';

-- One row per setting that differs from its default; value is JSON, secrets are SecretBox
-- ciphertext strings. A missing row means "default" (session_timeout_days falls back to 7 when its
-- row is missing, per the spec).
CREATE TABLE site_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_user_id uuid,
  action text NOT NULL,
  target_type text,
  target_id text,
  ip text,
  user_agent text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created ON audit_log (created_at DESC);
CREATE INDEX audit_log_actor ON audit_log (actor_user_id, created_at DESC);

-- Email verification and password-reset codes and link tokens, stored only as SHA-256 hashes.
CREATE TABLE verification_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email citext NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('register', 'reset_password')),
  code_hash text NOT NULL,
  link_token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_tokens_email ON verification_tokens (email, purpose, created_at DESC);

CREATE TABLE totp_backup_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX totp_backup_codes_user ON totp_backup_codes (user_id) WHERE used_at IS NULL;

CREATE TABLE sso_providers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name citext NOT NULL UNIQUE,
  display_name text NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  client_secret_enc text NOT NULL,
  scopes text NOT NULL DEFAULT 'openid email profile',
  enabled boolean NOT NULL DEFAULT true,
  allow_registration boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sso_connections (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider_id uuid NOT NULL REFERENCES sso_providers (id) ON DELETE CASCADE,
  subject text NOT NULL,
  email citext,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider_id, subject)
);

-- Seeds: the permission codes the spec names, the three system roles, the default team.
INSERT INTO permissions (code, description) VALUES
  ('*', 'Everything'),
  ('admin:dashboard:access', 'Global admin: dashboards and observability'),
  ('admin:settings:read', 'Read site settings'),
  ('admin:settings:update', 'Update site settings'),
  ('admin:users:read', 'List and read users'),
  ('admin:users:update', 'Approve, activate, deactivate users and assign roles'),
  ('admin:roles:manage', 'Create, update and delete roles'),
  ('admin:notification:create', 'Create notifications'),
  ('admin:notification:delete', 'Delete notifications'),
  ('admin:model:create', 'Create and discover models'),
  ('admin:model:update', 'Update models and team model grants'),
  ('admin:model:delete', 'Delete models'),
  ('apikey:read', 'List and read own API keys'),
  ('apikey:create', 'Create API keys'),
  ('apikey:update', 'Update, activate and deactivate API keys'),
  ('apikey:delete', 'Delete API keys'),
  ('workflow:read', 'Read workflows'),
  ('workflow:create', 'Create workflows'),
  ('workflow:update', 'Update, publish and version workflows'),
  ('workflow:delete', 'Delete workflows'),
  ('workflow:execute', 'Run workflows');

INSERT INTO roles (name, description, is_system, is_default) VALUES
  ('Super Admin', 'Everything', true, false),
  ('Admin', 'Administration and API keys', true, false),
  ('User', 'Default role for new users', true, true);

INSERT INTO role_permissions (role_id, permission_code)
  SELECT id, '*' FROM roles WHERE name = 'Super Admin';
INSERT INTO role_permissions (role_id, permission_code)
  SELECT r.id, p.code FROM roles r, permissions p
  WHERE r.name = 'Admin' AND (p.code LIKE 'admin:%' OR p.code LIKE 'apikey:%');
INSERT INTO role_permissions (role_id, permission_code)
  SELECT r.id, p.code FROM roles r, permissions p
  WHERE r.name = 'User' AND (p.code LIKE 'apikey:%' OR p.code LIKE 'workflow:%');

INSERT INTO teams (name, description, is_default) VALUES ('Default', 'Every user joins this team', true);

-- session_timeout_days is 30 by default; the in-code fallback of 7 applies only when this row is
-- deleted (spec: "falls back to 7 when the setting row is missing").
INSERT INTO site_settings (key, value) VALUES ('session_timeout_days', '30');

-- Down Migration
DROP TABLE sso_connections, sso_providers, totp_backup_codes, verification_tokens, audit_log,
  site_settings, team_members, teams, user_roles, role_permissions, roles, permissions, users;
