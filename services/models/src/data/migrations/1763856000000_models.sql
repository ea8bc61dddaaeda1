-- Up Migration
-- Model definitions (spec "Model definition"). The API key is stored sealed (SecretBox from
-- SECRET_KEY) and never returned; api_key_set in responses is derived from api_key_sealed.
CREATE TABLE models (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  provider text NOT NULL,
  model_id text NOT NULL,
  model_type text NOT NULL,
  provider_display_name text,
  base_url text,
  api_key_sealed text,
  context_length integer CHECK (context_length >= 1),
  max_output_tokens integer CHECK (max_output_tokens >= 1),
  -- Exact decimals: 6 places as the spec allows, returned as written.
  input_price numeric(24, 6) CHECK (input_price >= 0),
  output_price numeric(24, 6) CHECK (output_price >= 0),
  default_params jsonb,
  capabilities jsonb,
  is_enabled boolean NOT NULL DEFAULT true,
  is_default boolean NOT NULL DEFAULT false,
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- At most one default model per type, also under concurrent updates.
CREATE UNIQUE INDEX models_one_default_per_type ON models (model_type) WHERE is_default;
CREATE INDEX models_listing ON models (sort_order, name, id);

-- Down Migration
DROP TABLE models;
