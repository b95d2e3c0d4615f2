import { useState } from 'preact/hooks';
import { html } from './html';
import { apiGet, ApiFailure, type Session } from './api';

/** Checks the key against a keyed endpoint before keeping it, so a typo is told at once. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const [organization, setOrganization] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    const session = { key: key.trim(), organization: organization.trim() };
    try {
      await apiGet(session, `/v1/organization/requests?limit=1`);
      onSignedIn(session);
    } catch (failure) {
      setError(failure instanceof ApiFailure ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return html`
    <main class="sign-in">
      <h1>Cost console</h1>
      <form onSubmit=${submit} aria-describedby="sign-in-note">
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="off" required value=${key} onInput=${(e: Event) => setKey((e.target as HTMLInputElement).value)} />
        <label for="sign-in-org">Organization <span class="hint">(optional, for a key of several organizations)</span></label>
        <input id="sign-in-org" name="organization" type="text" value=${organization} onInput=${(e: Event) => setOrganization((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled=${busy}>Sign in</button>
        <p id="sign-in-note" class="hint">The key stays in this tab only (sessionStorage) and is sent to this gateway alone.</p>
        ${error && html`<p role="alert" class="error">${error}</p>`}
      </form>
    </main>`;
}
