/**
 * The password bounds no site setting can loosen: identity's policy never accepts fewer than
 * `minLength` characters (the floor of the `password_min_length` setting) nor more than
 * `maxLength`. Identity enforces them with the site's other rules (and lists every reason at once);
 * the gateway states them in the OpenAPI document.
 */
export const PASSWORD_BOUNDS: { readonly minLength: number; readonly maxLength: number } = {
  minLength: 8,
  maxLength: 128,
};
