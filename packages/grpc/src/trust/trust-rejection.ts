/** Why a call's credentials were refused; logged by the server, never sent to the caller. */
export class TrustRejection extends Error {
  constructor(
    readonly kind: 'unauthenticated' | 'forbidden',
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'TrustRejection';
  }
}
