/**
 * The analytics use cases' inputs: the request parameters by their JSON names, '' where the caller
 * gave none (grpc/decode-requests.ts turns the proto enums into these). parameters.ts applies the
 * spec's defaults and rules to them.
 */
export interface EntityListInput {
  time_range: string;
  page: number;
  page_size: number;
  sort_by: string;
  sort_order: string;
}

export interface EntityInput {
  id: string;
  time_range: string;
}

export interface TimeoutListInput extends EntityListInput {
  source: string;
}

export interface ThroughputInput {
  time_range: string;
  granularity: string;
}
