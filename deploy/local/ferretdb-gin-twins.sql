-- GIN twins for FerretDB's indexes (local stack only; run on the 'ferretdb' database by
-- deploy/local/lib/ferretdb.sh, idempotent).
--
-- Why: FerretDB 1.24 turns a MongoDB index {field: 1, ...} into a Postgres btree on
-- (_jsonb -> 'field'), but pushes an equality filter {field: value} down as jsonb containment,
-- `_jsonb -> 'field' @> '"value"'`, which a btree cannot serve. Every equality query on the
-- MongoDB side is therefore a sequential scan of the whole collection table (measured: 9 s for the
-- inbox at 1 M notifications). A GIN index (jsonb_path_ops) on the same expression serves that
-- containment, so each index a service declares gets a GIN twin on its leading field, the one an
-- equality uses. MongoDB in production (deploy/docker-compose.yml) needs none of this.
--
-- FerretDB names the key as a query parameter (`_jsonb->$1`), so the planner can match the index
-- expression only in a custom plan: FerretDB connects with plan_cache_mode=force_custom_plan
-- (see ferretdb_pg_url in lib/ferretdb.sh).

CREATE OR REPLACE FUNCTION public.ferretdb_gin_twin_name(tbl text, expr text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT left(tbl, 40) || '_' || left(md5(expr), 12) || '_gin'
$$;

-- Creates the twin of one btree index (its leading key) when that key is a top-level field.
CREATE OR REPLACE FUNCTION public.ferretdb_gin_twin_for(index_oid oid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  ix record;
  lead_expr text;
BEGIN
  SELECT n.nspname AS schema, t.relname AS tbl, am.amname AS method
    INTO ix
    FROM pg_index x
    JOIN pg_class c ON c.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_am am ON am.oid = c.relam
   WHERE x.indexrelid = index_oid;
  IF NOT FOUND OR ix.method <> 'btree' OR ix.schema IN ('public', 'pg_catalog')
     OR ix.tbl LIKE '\_ferretdb\_%' THEN
    RETURN;
  END IF;
  lead_expr := pg_get_indexdef(index_oid, 1, false);
  -- FerretDB's form for a top-level field: ((_jsonb -> 'name'::text)). Dotted paths are left alone.
  IF lead_expr !~ '^\(\(_jsonb -> ''([^'']|'''')+''::text\)\)$' THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin (%s jsonb_path_ops)',
                 public.ferretdb_gin_twin_name(ix.tbl, lead_expr), ix.schema, ix.tbl, lead_expr);
END
$$;

CREATE OR REPLACE FUNCTION public.ferretdb_gin_twins_on_create() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands()
              WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    PERFORM public.ferretdb_gin_twin_for(cmd.objid);
  END LOOP;
END
$$;

-- A dropped MongoDB index (dropIndexes, syncIndexes) takes its twin along unless another btree on
-- the table still leads with the same field.
CREATE OR REPLACE FUNCTION public.ferretdb_gin_twins_on_drop() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  twin record;
BEGIN
  FOR twin IN
    SELECT DISTINCT n.nspname AS schema, g.relname AS name
      FROM pg_event_trigger_dropped_objects() d
      JOIN pg_namespace n ON n.nspname = d.schema_name
      JOIN pg_index gx ON true
      JOIN pg_class g ON g.oid = gx.indexrelid AND g.relnamespace = n.oid
      JOIN pg_am gam ON gam.oid = g.relam AND gam.amname = 'gin'
      JOIN pg_class t ON t.oid = gx.indrelid
     WHERE d.object_type = 'index'
       AND g.relname = public.ferretdb_gin_twin_name(t.relname, pg_get_indexdef(gx.indexrelid, 1, false))
       AND NOT EXISTS (
         SELECT 1 FROM pg_index bx
           JOIN pg_class b ON b.oid = bx.indexrelid
           JOIN pg_am bam ON bam.oid = b.relam AND bam.amname = 'btree'
          WHERE bx.indrelid = gx.indrelid
            AND pg_get_indexdef(bx.indexrelid, 1, false) = pg_get_indexdef(gx.indexrelid, 1, false))
  LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I.%I', twin.schema, twin.name);
  END LOOP;
END
$$;

DROP EVENT TRIGGER IF EXISTS ferretdb_gin_twins_on_create;
CREATE EVENT TRIGGER ferretdb_gin_twins_on_create ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION public.ferretdb_gin_twins_on_create();

DROP EVENT TRIGGER IF EXISTS ferretdb_gin_twins_on_drop;
CREATE EVENT TRIGGER ferretdb_gin_twins_on_drop ON sql_drop
  WHEN TAG IN ('DROP INDEX') EXECUTE FUNCTION public.ferretdb_gin_twins_on_drop();

-- Indexes made before this file ran (a stack that was already up) get their twins now.
SELECT public.ferretdb_gin_twin_for(x.indexrelid)
  FROM pg_index x
  JOIN pg_class t ON t.oid = x.indrelid
  JOIN pg_namespace n ON n.oid = t.relnamespace
 WHERE n.nspname NOT IN ('public', 'pg_catalog', 'information_schema', 'pg_toast');
