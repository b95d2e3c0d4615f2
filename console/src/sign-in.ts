import { useState } from 'preact/hooks';
import { html } from './html';
import { apiGet, ApiFailure, type KeyKind, type Session } from './api';

/** Checks the key against a keyed endpoint before keeping it, so a typo is told at once. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const [organization, setOrganization] = useState('');
  const [kind, setKind] = useState<KeyKind>('model');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    // Each kind is checked on an endpoint it may call, so the right key never gets a 403 on the way in.
    const session: Session = { key: key.trim(), organization: kind === 'model' ? organization.trim() : '', kind };
    try {
      await apiGet(session, kind === 'model' ? '/v1/organization/requests?limit=1' : '/v1/keys?limit=1');
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
        <fieldset class="key-kind">
          <legend>Key type</legend>
          <label><input type="radio" name="kind" value="model" checked=${kind === 'model'} onChange=${() => setKind('model')} /> Model key (costs, requests, models)</label>
          <label><input type="radio" name="kind" value="management" checked=${kind === 'management'} onChange=${() => setKind('management')} /> Management key (keys)</label>
        </fieldset>
        <label for="sign-in-org">Organization <span class="hint">(optional, for a key of several organizations)</span></label>
        <input id="sign-in-org" name="organization" type="text" disabled=${kind === 'management'} value=${organization} onInput=${(e: Event) => setOrganization((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled=${busy}>Sign in</button>
        <p id="sign-in-note" class="hint">The key stays in this tab only (sessionStorage) and is sent to this gateway alone.</p>
        ${error && html`<p role="alert" class="error">${error}</p>`}
      </form>
    </main>`;
}
