/** Texts a player reads: refusals at the gate and answers to /linktraining. Never names unlisted courses. */
export const trainingMessages = {
  noDiscord:
    'This server checks your academy training through your Discord account, and none was found. Link Discord to FiveM (FiveM settings, Accounts), restart FiveM and reconnect.',
  linkCode: (code: string, confirmUrl: string | undefined, expiresAt: string | undefined) =>
    `${confirmUrl ? `open ${confirmUrl} while signed in to the academy` : 'sign in to the academy website'} and enter the code ${code}${expiresAt ? ` (valid until ${expiresAt})` : ''}`,
  notLinked: (steps: string) =>
    `Your Discord account is not linked to your academy account yet. To link it, ${steps}. Then reconnect.`,
  notLinkedNoCode:
    'Your Discord account is not linked to your academy account yet, and a link code could not be made right now. Please try again shortly.',
  notTrained: (courses: string) =>
    `You have not completed the training this server requires: ${courses}. Complete it at the academy, then reconnect.`,
  unavailable: 'The academy training check is unavailable right now. Please try again shortly.',
  alreadyLinked: 'Your Discord account is already linked to your academy account.',
  linkInGame: (steps: string) => `To link your academy account, ${steps}.`,
  linkFailed: 'A link code could not be made right now. Please try again in a minute.',
  trainingOff: 'Academy training is not set up on this server.',
};
