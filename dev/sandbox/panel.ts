/** Where the sandbox's owner's panel answers, and the token that opens it. */
export interface PanelAccess {
  url: string;
  token: string;
}
