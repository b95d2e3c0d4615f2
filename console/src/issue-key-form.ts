// Issuing a key: POST /v1/keys with the fields the API takes; its 422 messages are shown as they come.
import { useState } from 'preact/hooks';
import { html } from './html';
import { apiSend, type Session } from './api';
import { expiresAtOfLocalInput, organizationsOfInput } from '../lib/key-usage';

export interface IssuedKey { id: string; name: string; key: string }

const RESETS = [['', 'none (lifetime)'], ['daily', 'daily (UTC day)'], ['weekly', 'weekly (ISO week, UTC)'], ['monthly', 'monthly (UTC)']] as const;

export function IssueKeyForm({ session, onIssued }: { session: Session; onIssued: (key: IssuedKey) => void }) {
  const [fields, setFields] = useState({ name: '', organizations: '', limit: '', reset: '', expires: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const field = (name: keyof typeof fields) => (event: Event) => setFields({ ...fields, [name]: (event.target as HTMLInputElement).value });

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    // The limit goes as the typed decimal string: the API reads it exactly (at most 6 decimals) or says why not.
    const body = {
      name: fields.name.trim(),
      organizations: organizationsOfInput(fields.organizations),
      ...(fields.limit.trim() ? { limit_usd: fields.limit.trim() } : {}),
      ...(fields.reset ? { limit_reset: fields.reset } : {}),
      ...(fields.expires ? { expires_at: expiresAtOfLocalInput(fields.expires) } : {}),
    };
    try {
      const issued = await apiSend<IssuedKey>(session, 'POST', '/v1/keys', body);
      setError('');
      setFields({ name: '', organizations: '', limit: '', reset: '', expires: '' });
      onIssued(issued);
    } catch (failure) {
      setError(String((failure as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return html`
    <form class="issue-key controls" onSubmit=${submit} aria-labelledby="issue-title">
      <h3 id="issue-title" class="form-title">Create a key</h3>
      <label>Name<input name="name" required maxLength="100" value=${fields.name} onInput=${field('name')} /></label>
      <label>Organizations <span class="hint">(ids, comma-separated)</span><input name="organizations" required value=${fields.organizations} onInput=${field('organizations')} /></label>
      <label>Limit (USD) <span class="hint">(optional, up to 6 decimals)</span><input name="limit_usd" inputMode="decimal" pattern="\\d+(\\.\\d{1,6})?" value=${fields.limit} onInput=${field('limit')} /></label>
      <label>Limit resets<select name="limit_reset" value=${fields.reset} onChange=${field('reset')}>
        ${RESETS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
      </select></label>
      <label>Expires (UTC) <span class="hint">(optional)</span><input name="expires_at" type="datetime-local" value=${fields.expires} onInput=${field('expires')} /></label>
      <button type="submit" disabled=${busy}>Create key</button>
      ${error && html`<p role="alert" class="error">${error}</p>`}
    </form>`;
}
