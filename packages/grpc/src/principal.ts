/** Who is calling, as authenticated by the gateway and carried to services in gRPC metadata. */
export interface Principal {
  user_id: string;
  username: string;
  is_superuser: boolean;
  /** Permission codes granted through roles (`*` grants everything). */
  permissions: string[];
  /** Ids of the teams the user belongs to. */
  team_ids: string[];
  auth_method: 'jwt' | 'api_key';
  /** Set when the caller presented an API key. */
  api_key_id?: string;
  scopes?: string[];
  /**
   * Set for API keys: the permissions, of those a key can act with (`API_KEY_RULES.ownerPermissions`),
   * that the key's owner holds at this request. `permissions` stays empty: a key holds none itself.
   */
  owner_permissions?: string[];
}
