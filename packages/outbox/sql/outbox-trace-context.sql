-- Issue 22: the W3C `traceparent` of the span that wrote the row (null outside a trace). The relay
-- publishes the row under a producer span parented by it, so one trace runs from the request
-- through the outbox into the consumer (docs/operations.md "Traces").
ALTER TABLE outbox ADD COLUMN trace_context text;
