/** `signin_passkeys`: one row per passkey (see its migration). */
export interface PasskeysTable {
  id: number;
  user_id: number;
  /** base64url, as the authenticator gave it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number | string;
  /** Comma-separated `AuthenticatorTransport`s. */
  transports: string;
  device_type: string;
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}
