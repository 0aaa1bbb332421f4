/** `request_object_signing_alg_values_supported`: unsigned, or signed with a key the client registered. */
export const REQUEST_OBJECT_ALGORITHMS = ['none', 'RS256', 'PS256', 'ES256'] as const;
