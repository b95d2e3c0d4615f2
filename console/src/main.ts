// The cost console: sign in with an API key (this tab only), then costs, requests and models views,
// one per hash route so the browser's back button and links work without a server router. A management
// key sees the Keys view, organization budgets and the operator's margins (the management API only).
import 'uplot/dist/uPlot.min.css';
import './console.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html';
import { apiGet, ApiFailure, loadSession, saveSession, type Session } from './api';
import { SignIn } from './sign-in';
import { CostsView } from './costs-view';
import { RequestsView } from './requests-view';
import { ModelsView } from './models-view';
import { KeysView } from './keys-view';
import { BudgetsPanel } from './budgets-panel';
import { MarginsView } from './margins-view';

const VIEWS = [['costs', 'Costs'], ['requests', 'Requests'], ['models', 'Models']] as const;
type View = (typeof VIEWS)[number][0];

const viewOfHash = (): View => {
  const name = location.hash.replace(/^#\/?/, '');
  return (VIEWS.find(([id]) => id === name)?.[0] ?? 'costs') as View;
};

function OrganizationSwitcher({ session, onSwitch }: { session: Session; onSwitch: (session: Session) => void }) {
  const [organization, setOrganization] = useState(session.organization);
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    const next = { ...session, organization: organization.trim() };
    try {
      await apiGet(next, '/v1/organization/requests?limit=1');
      setError('');
      onSwitch(next);
    } catch (failure) {
      setError(failure instanceof ApiFailure ? failure.message : String(failure));
    }
  };
  return html`
    <form class="org-switch" onSubmit=${submit}>
      <label for="org-id">Organization</label>
      <input id="org-id" name="organization" placeholder="key's default" value=${organization} onInput=${(e: Event) => setOrganization((e.target as HTMLInputElement).value)} />
      <button type="submit">Switch</button>
      ${error && html`<span role="alert" class="error">${error}</span>`}
    </form>`;
}

function App() {
  const [session, setSession] = useState<Session | null>(loadSession());
  const [view, setView] = useState<View>(viewOfHash());
  useEffect(() => {
    const onHash = () => setView(viewOfHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const keep = (next: Session | null) => {
    saveSession(next);
    setSession(next);
  };

  if (!session) return html`<${SignIn} onSignedIn=${keep} />`;
  if (session.kind === 'management') {
    return html`
      <header class="top">
        <h1>Cost console</h1>
        <nav aria-label="Views"><a href="#/keys" aria-current="page">Keys</a></nav>
        <button type="button" class="sign-out" onClick=${() => keep(null)}>Sign out</button>
      </header>
      <main><${KeysView} session=${session} /><${BudgetsPanel} session=${session} /><${MarginsView} session=${session} /></main>`;
  }
  return html`
    <header class="top">
      <h1>Cost console</h1>
      <nav aria-label="Views">
        ${VIEWS.map(([id, label]) => html`<a href=${`#/${id}`} aria-current=${view === id ? 'page' : undefined}>${label}</a>`)}
      </nav>
      <${OrganizationSwitcher} session=${session} onSwitch=${keep} />
      <button type="button" class="sign-out" onClick=${() => keep(null)}>Sign out</button>
    </header>
    <main>
      ${view === 'costs' && html`<${CostsView} session=${session} />`}
      ${view === 'requests' && html`<${RequestsView} session=${session} />`}
      ${view === 'models' && html`<${ModelsView} />`}
    </main>`;
}

render(html`<${App} />`, document.getElementById('app')!);
