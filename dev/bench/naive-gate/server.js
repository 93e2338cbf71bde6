// A roster gate built the way such gates are usually built, for the benchmark to compare against:
// one request per joining player to the members endpoint, then one for their department
// assignments; no batching, no coalescing, no rate limiter; a plain per-player TTL cache; any
// answer other than 200 means "not on the roster". Optionally re-checks every online player on an
// interval, one lookup per player, as such resources do to keep ranks current.
// Never shipped: it exists so the comparison in BENCHMARKS.md runs under the same FXServer rules.

const baseUrl = GetConvar('naive_base_url', '');
const apiKey = GetConvar('naive_api_key', '');
const cacheMs = GetConvarInt('naive_cache_seconds', 300) * 1000;
const refreshMs = GetConvarInt('naive_refresh_seconds', 0) * 1000;

/** license → { member, assignments, at } */
const cache = new Map();

async function getData(path) {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
  });
  if (response.status !== 200) return null;
  const body = await response.json();
  return body.data;
}

async function lookup(license, fresh) {
  const hit = cache.get(license);
  if (!fresh && hit && Date.now() - hit.at < cacheMs) return hit;
  const members = await getData(`/api/v1/members?gameLicense=${encodeURIComponent(license)}`);
  const member = Array.isArray(members) ? members[0] : undefined;
  if (!member) return null;
  const assignments = await getData(
    `/api/v1/department-assignments?memberId=${encodeURIComponent(member.id)}&include=rank`,
  );
  if (!assignments) return null;
  const entry = { member, assignments, at: Date.now() };
  cache.set(license, entry);
  return entry;
}

function licenseOf(src) {
  return getPlayerIdentifiers(src).find((id) => id.startsWith('license:'));
}

on('playerConnecting', (_name, _setKickReason, deferrals) => {
  const src = source;
  deferrals.defer();
  setTimeout(async () => {
    const license = licenseOf(src);
    let entry = null;
    try {
      entry = license ? await lookup(license, false) : null;
    } catch (_error) {
      entry = null;
    }
    if (entry && entry.member.status === 'ACTIVE') deferrals.done();
    else deferrals.done('You are not on the roster.');
  }, 0);
});

if (refreshMs > 0) {
  setInterval(() => {
    for (const src of getPlayers()) {
      const license = licenseOf(src);
      if (license) lookup(license, true).catch(() => null);
    }
  }, refreshMs);
}

exports('cachedCount', () => cache.size);
