// The Keys view (management keys only): the key API's list a page at a time, issuing a key (its secret
// shown once), disable/enable, revoke after a confirmation, and each key's usage against its limit.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html';
import { apiJson, apiSend, type Session } from './api';
import { keyStatus, usageSummary, type KeyLike } from '../lib/key-usage';
import { IssueKeyForm, type IssuedKey } from './issue-key-form';

export interface KeyEntry extends KeyLike {
  id: string;
  name: string;
  source: 'api' | 'configuration';
  organizations: string[];
  default_organization: string;
}

interface KeyPage { data: KeyEntry[]; has_more: boolean; next_offset: number | null }
/** A page with the offset it was read at, so the caption never pairs new numbers with old rows. */
type ShownPage = KeyPage & { offset: number };

const PAGE = 20;

function UsageCell({ entry }: { entry: KeyEntry }) {
  const summary = usageSummary(entry);
  return html`
    <td class="usage" data-spent-micros=${String(summary.spentMicros)} data-used-micros=${String(summary.usedMicros)}>
      ${summary.perMille != null && html`
        <meter min="0" max="1000" low="800" high="950" optimum="0" value=${summary.perMille} aria-label=${`${entry.name}: ${summary.perMille / 10}% of the limit used`}></meter>`}
      <span data-testid=${`usage-${entry.id}`}>${summary.text}</span>
    </td>`;
}

function Actions({ entry, session, onChanged }: { entry: KeyEntry; session: Session; onChanged: (message: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  // The question replaces the Revoke button: keyboard focus goes to its safe answer, and back after Cancel.
  const cancelButton = useRef<HTMLButtonElement>(null);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
    else if (asked.current) revokeButton.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  if (entry.source === 'configuration') return html`<td class="hint actions">configured: change it in the configuration file</td>`;
  if (entry.revoked) return html`<td class="hint actions">revoked for good</td>`;
  const act = async (method: 'PATCH' | 'DELETE', body: unknown, done: string) => {
    try {
      await apiSend(session, method, `/v1/keys/${encodeURIComponent(entry.id)}`, body);
      setError('');
      setConfirming(false);
      onChanged(done);
    } catch (failure) {
      setError(String((failure as Error).message));
    }
  };
  return html`
    <td class="actions">
      ${entry.disabled
        ? html`<button type="button" onClick=${() => act('PATCH', { disabled: false }, `Key ${entry.name} enabled.`)}>Enable<span class="visually-hidden"> ${entry.name}</span></button>`
        : html`<button type="button" onClick=${() => act('PATCH', { disabled: true }, `Key ${entry.name} disabled.`)}>Disable<span class="visually-hidden"> ${entry.name}</span></button>`}
      ${confirming
        ? html`<span role="group" aria-label=${`Confirm revoking ${entry.name}`} class="confirm">
            Revoke for good?
            <button type="button" class="danger" onClick=${() => act('DELETE', undefined, `Key ${entry.name} revoked.`)}>Yes, revoke<span class="visually-hidden"> ${entry.name}</span></button>
            <button type="button" ref=${cancelButton} onClick=${() => setConfirming(false)}>Cancel</button>
          </span>`
        : html`<button type="button" class="danger-outline" ref=${revokeButton} onClick=${() => setConfirming(true)}>Revoke<span class="visually-hidden"> ${entry.name}</span></button>`}
      ${error && html`<span role="alert" class="error">${error}</span>`}
    </td>`;
}

export function KeysView({ session }: { session: Session }) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<ShownPage | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const load = (at = offset) =>
    apiJson<KeyPage>(session, `/v1/keys?limit=${PAGE}&offset=${at}`).then((next) => { setPage({ ...next, offset: at }); setError(''); }, (failure) => setError(String(failure.message)));
  useEffect(() => { void load(offset); }, [offset]);
  const changed = (message: string) => { setNotice(message); void load(); };
  const now = Date.now();

  return html`
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <${IssueKeyForm} session=${session} onIssued=${(key: IssuedKey) => { setIssued(key); changed(`Key ${key.name} created.`); }} />
      ${issued && html`<${ShownOnce} issued=${issued} onDone=${() => setIssued(null)} />`}
      <p role="status" class="notice">${notice}</p>
      <div class="controls">
        <button type="button" onClick=${() => load()}>Refresh</button>
      </div>
      ${error && html`<p role="alert" class="error">${error}</p>`}
      ${page && html`
        <div class="table-scroll" tabindex="0" role="region" aria-label="Keys table">
          <table class="keys">
            <caption>Keys ${page.offset + 1}-${page.offset + page.data.length}${page.has_more ? ', more on the next page' : ''}</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Usage and limit</th><th scope="col">Actions</th><th scope="col">Organizations</th><th scope="col">Expires</th><th scope="col">Id</th></tr></thead>
            <tbody>
              ${page.data.map((entry) => html`
                <tr key=${entry.id} data-key-id=${entry.id}>
                  <th scope="row">${entry.name}</th>
                  <td><span class=${`status key-${keyStatus(entry, now)}`} data-testid=${`status-${entry.id}`}>${keyStatus(entry, now)}</span></td>
                  <${UsageCell} entry=${entry} />
                  <${Actions} entry=${entry} session=${session} onChanged=${changed} />
                  <td>${entry.organizations.join(', ')}</td>
                  <td>${entry.expires_at ?? 'never'}</td>
                  <td><code>${entry.id}</code></td>
                </tr>`)}
            </tbody>
          </table>
        </div>
        <nav class="pager" aria-label="Key pages">
          <button type="button" disabled=${page.offset === 0} onClick=${() => setOffset(Math.max(0, page.offset - PAGE))}>Previous page</button>
          <button type="button" disabled=${!page.has_more} onClick=${() => setOffset(page.next_offset ?? page.offset + PAGE)}>Next page</button>
        </nav>`}
    </section>`;
}

/** The plain key, once: the API never shows it again, so the notice says so and offers a copy button. */
function ShownOnce({ issued, onDone }: { issued: IssuedKey; onDone: () => void }) {
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued.key);
      setCopied('Copied to the clipboard.');
    } catch {
      (document.getElementById('issued-key') as HTMLInputElement | null)?.select();
      setCopied('Copying was refused by the browser: the key is selected, press Ctrl+C (or Cmd+C).');
    }
  };
  return html`
    <div class="shown-once" role="region" aria-labelledby="shown-once-title">
      <h3 id="shown-once-title">New key ${issued.name}: shown once</h3>
      <p><strong>Copy it now.</strong> The gateway keeps only its hash and cannot show this key again.</p>
      <label for="issued-key">Key</label>
      <input id="issued-key" readonly value=${issued.key} data-testid="issued-key" onFocus=${(e: Event) => (e.target as HTMLInputElement).select()} />
      <button type="button" onClick=${copy}>Copy key</button>
      <button type="button" onClick=${onDone}>I have stored it, hide</button>
      <p role="status">${copied}</p>
    </div>`;
}
