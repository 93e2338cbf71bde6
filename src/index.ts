import { loadSettings } from './core/config';

// Wiring only: FXServer provides these as globals of the resource's script scope.
declare function GetCurrentResourceName(): string;
declare function LoadResourceFile(resource: string, file: string): string | null;
declare function GetConvar(name: string, fallback: string): string;

const resource = GetCurrentResourceName();
const result = loadSettings(LoadResourceFile(resource, 'config.json'), {
  apiKey: GetConvar('roster_api_key', ''),
  baseUrl: GetConvar('roster_base_url', ''),
  logLevel: GetConvar('roster_log_level', ''),
  trainingApiKey: GetConvar('roster_training_api_key', ''),
});
if (result.ok) {
  console.log(`[roster] ${__ROSTER_VERSION__} loaded; roster service at ${result.settings.baseUrl}`);
} else {
  for (const problem of result.problems) console.log(`[roster] ${problem}`);
}
