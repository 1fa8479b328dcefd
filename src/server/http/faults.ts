/** What a fault rule does to a matching request instead of (or before) handling it. */
export type FaultAction =
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'html' }
  | { kind: 'truncated' }
  | { kind: 'delay' }
  /** Answers, then ends an event stream abruptly after `after` events (for resume tests). */
  | { kind: 'drop'; after: number };

export interface FaultRule {
  method: string;
  /** A path; `*` matches one segment, a trailing `/**` matches the rest. */
  path: string;
  action: FaultAction;
  /** How many matching requests it applies to; undefined for all. */
  remaining?: number;
  delayMs?: number;
  /** Set through /_kb/faults: applies only to requests authenticated for this workspace. */
  workspaceId?: string;
}

/**
 * Parses one rule: `METHOD PATH ACTION [xN] [delay=MS] [retry-after=VALUE]`, e.g.
 * `GET /v1/threads 503 x2`, `POST /v1/threads/*\/messages 429 retry-after=1 x1`,
 * `* /v1/files reset`, `GET /v1/users hang`, `GET /v1/files html`, `GET /v1/files truncated`,
 * `GET /v1/threads delay delay=2000`.
 */
export function parseFaultRule(text: string): FaultRule {
  const [method, path, action, ...rest] = text.trim().split(/\s+/);
  if (!method || !path || !action)
    throw new Error(`invalid fault rule "${text}": expected METHOD PATH ACTION [xN] [delay=MS]`);
  if (!path.startsWith('/')) throw new Error(`invalid fault rule "${text}": the path must start with /`);
  const rule: FaultRule = { method: method.toUpperCase(), path, action: { kind: 'delay' } };
  let retryAfter: string | undefined;
  let after: number | undefined;
  for (const option of rest) {
    const times = /^x(\d+)$/.exec(option);
    if (times) rule.remaining = Number(times[1]);
    else if (option.startsWith('delay=')) rule.delayMs = Number(option.slice(6));
    else if (option.startsWith('retry-after=')) retryAfter = option.slice(12);
    else if (/^after=\d+$/.test(option)) after = Number(option.slice(6));
    else throw new Error(`invalid fault rule "${text}": unknown option "${option}"`);
  }
  if (/^\d{3}$/.test(action)) rule.action = { kind: 'status', status: Number(action), retryAfter };
  else if (action === 'drop') rule.action = { kind: 'drop', after: after ?? 1 };
  else if (['reset', 'hang', 'html', 'truncated', 'delay'].includes(action))
    rule.action = { kind: action } as FaultAction;
  else throw new Error(`invalid fault rule "${text}": unknown action "${action}"`);
  if (rule.delayMs !== undefined && !(rule.delayMs >= 0))
    throw new Error(`invalid fault rule "${text}": bad delay`);
  return rule;
}

function pathMatches(pattern: string, path: string): boolean {
  const p = pattern.split('/');
  const s = path.split('/');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '**') return true;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * A deterministic fault plan: rules are consumed in order, each for its count of requests.
 * Rules from --fault apply to every workspace; rules a workspace sets apply to its own
 * requests only, so one workspace can never break another.
 */
export class FaultPlan {
  rules: FaultRule[] = [];

  add(rules: FaultRule[], workspaceId?: string): void {
    this.rules.push(...rules.map((r) => ({ ...r, workspaceId })));
  }

  /** The rules that apply to `workspaceId`'s requests. */
  visibleTo(workspaceId: string): FaultRule[] {
    return this.rules.filter((r) => r.workspaceId === undefined || r.workspaceId === workspaceId);
  }

  /** Removes the rules `workspaceId` set (all rules without one). */
  clear(workspaceId?: string): void {
    this.rules = workspaceId === undefined ? [] : this.rules.filter((r) => r.workspaceId !== workspaceId);
  }

  /** The rule for this request of `workspaceId`, if any; counts it as used. */
  take(method: string, path: string, workspaceId: string): FaultRule | undefined {
    const index = this.rules.findIndex(
      (r) =>
        (r.workspaceId === undefined || r.workspaceId === workspaceId) &&
        (r.method === '*' || r.method === method) &&
        pathMatches(r.path, path),
    );
    if (index < 0) return undefined;
    const rule = this.rules[index]!;
    if (rule.remaining !== undefined) {
      rule.remaining--;
      if (rule.remaining <= 0) this.rules.splice(index, 1);
    }
    return rule;
  }
}
