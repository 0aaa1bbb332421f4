/** How long a rotated client secret's predecessor may keep working (seconds), as the dashboard offers it. */
export const GRACE_CHOICES = [
  [0, 'stops now'],
  [3600, 'works 1 more hour'],
  [86400, 'works 1 more day'],
  [604800, 'works 7 more days'],
] as const;
