import { z } from 'zod';

/** Texts shown to refused or waiting players. Placeholders: {player}, {community}, {seconds}, {status}, {requestId}. */
export const messagesSchema = z
  .object({
    checking: z.string().min(1).default('Checking the {community} roster…'),
    waiting: z.string().min(1).default('Checking the {community} roster… (busy, about {seconds}s)'),
    notOnRoster: z
      .string()
      .min(1)
      .default(
        'You are not on the {community} roster. Apply on the community website, then reconnect once you are accepted.',
      ),
    wrongStatus: z
      .string()
      .min(1)
      .default('Your {community} roster status is {status}, which may not join this server. Contact staff.'),
    notInDepartment: z
      .string()
      .min(1)
      .default('You are on the {community} roster but not in a department allowed on this server.'),
    noLicense: z
      .string()
      .min(1)
      .default(
        'No Rockstar license was found for your game. Restart FiveM, sign in to Rockstar and reconnect.',
      ),
    unavailable: z
      .string()
      .min(1)
      .default('The {community} roster is unavailable right now. Please try again shortly.'),
    notConfigured: z
      .string()
      .min(1)
      .default("This server's roster check is not set up. Please tell the server staff."),
  })
  .strict()
  .prefault({});
