/** Raised after the change is committed; `actorId` is the user who did it. */
export class OrganizationCreated {
  constructor(
    readonly organizationId: number,
    readonly name: string,
    readonly actorId: number,
  ) {}
}

export class OrganizationRenamed {
  constructor(
    readonly organizationId: number,
    readonly name: string,
    readonly actorId: number,
  ) {}
}

export class OrganizationDeleted {
  constructor(
    readonly organizationId: number,
    readonly actorId: number,
  ) {}
}

export class MemberAdded {
  constructor(
    readonly organizationId: number,
    readonly userId: number,
    readonly role: string,
    /** Who invited them (or created the organization); themselves when they joined by domain. */
    readonly actorId: number | null,
    /** 'domain': they joined by their verified address's domain; null: invited or the creator. */
    readonly via: 'domain' | null = null,
  ) {}
}

/** An owner let people join by their verified address's domain (`domain`), or ended it (null). */
export class AutoJoinDomainChanged {
  constructor(
    readonly organizationId: number,
    readonly domain: string | null,
    readonly actorId: number,
  ) {}
}

export class MemberRoleChanged {
  constructor(
    readonly organizationId: number,
    readonly userId: number,
    readonly from: string,
    readonly to: string,
    readonly actorId: number,
  ) {}
}

/** Removed by someone else, or left (`actorId === userId`). */
export class MemberRemoved {
  constructor(
    readonly organizationId: number,
    readonly userId: number,
    readonly role: string,
    readonly actorId: number,
  ) {}
}

export class MemberInvited {
  constructor(
    readonly organizationId: number,
    readonly invitationId: number,
    readonly email: string,
    readonly role: string,
    readonly actorId: number,
  ) {}
}

export class InvitationRevoked {
  constructor(
    readonly organizationId: number,
    readonly invitationId: number,
    readonly email: string,
    readonly actorId: number,
  ) {}
}
