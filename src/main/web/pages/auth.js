// Signing in and everything a mailed link opens: register, verify, forgot and reset, link an
// identity provider, confirm an address for someone's alerts.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, get, post } from '../lib/api.js';
import { FormErrors } from '../lib/forms.js';
import { Link, navigate } from '../lib/router.js';
import { beginProviderSignIn, signIn, takeReturn } from '../lib/session.js';
import { Button, ErrorMessage, Page, TextField, issuesAt, useAction, useLoad } from '../lib/ui.js';

const PROVIDER_NAMES = { github: 'GitHub' };
const providerName = (p) => PROVIDER_NAMES[p] || p.charAt(0).toUpperCase() + p.slice(1);

/** Why a provider's sign-in came back without a session (its #error code). */
const PROVIDER_ERRORS = {
  access_denied: 'The identity provider did not sign you in.',
  invalid_state: 'That sign-in had expired or was started elsewhere. Please try again.',
  invalid_answer: 'The identity provider’s answer could not be verified. Please try again.',
  unverified_email: 'The identity provider vouched for no verified e-mail address.',
  link_mailed:
    'An account already uses this address. We mailed it a link that connects this sign-in to it.',
  link_refused: 'An account already uses this address and cannot be connected this way.',
  provider_unavailable: 'The identity provider could not be reached. Please try again later.',
  sign_up_closed: 'This service does not open accounts by sign-in. Ask an administrator for one.',
};

function Form({ onSubmit, formRef, children }) {
  return h(
    'form',
    {
      class: 'form',
      ref: formRef,
      noValidate: true,
      onSubmit: (e) => {
        e.preventDefault();
        onSubmit();
      },
    },
    children,
  );
}

export function SignIn({ fragment, expired }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, act } = useAction();
  const status = useLoad(() => get('/config/status', { anonymous: true }));
  const providers = Object.entries(status.data?.identityProviders || {})
    .filter(([, on]) => on)
    .map(([name]) => name);
  const submit = () =>
    act(async () => {
      const session = await post('/auth/login', { email, password }, { anonymous: true });
      signIn(session.token);
      navigate(takeReturn(), { replace: true });
    });
  const providerError = fragment?.error && (PROVIDER_ERRORS[fragment.error] || `Sign-in failed (${fragment.error}).`);
  return h(
    Page,
    { title: 'Sign in' },
    expired ? h('p', { class: 'notice', role: 'status' }, 'Your session has ended. Please sign in again.') : null,
    status.data?.setup ? h(FirstAdministrator) : null,
    providerError ? h('p', { class: 'error', role: 'alert' }, providerError) : null,
    h(
      Form,
      { onSubmit: submit },
      h(TextField, { label: 'Email', type: 'email', autocomplete: 'username', value: email, onInput: setEmail, issues: issuesAt(error, ['email']) }),
      h(TextField, { label: 'Password', type: 'password', autocomplete: 'current-password', value: password, onInput: setPassword, issues: issuesAt(error, ['password']) }),
      h(ErrorMessage, { error }),
      h(Button, { type: 'submit', kind: 'primary', busy }, 'Sign in'),
    ),
    providers.length
      ? h(
          'div',
          { class: 'providers' },
          h('p', null, 'Or sign in with'),
          providers.map((p) =>
            h(
              'a',
              {
                class: 'button secondary',
                href: `/auth/${encodeURIComponent(p)}`,
                // the nonce makes the session that comes back this tab's own (session.js)
                onClick: (e) => {
                  e.preventDefault();
                  location.assign(`/auth/${encodeURIComponent(p)}?nonce=${beginProviderSignIn()}`);
                },
              },
              providerName(p),
            ),
          ),
        )
      : null,
    h(
      'p',
      { class: 'links' },
      status.data?.registration ? h(Link, { href: '/register' }, 'Create an account') : null,
      status.data?.registration && status.data?.email ? ' · ' : null,
      // a reset link is mailed: without SMTP the page could only fail
      status.data?.email ? h(Link, { href: '/forgot-password' }, 'Forgot your password?') : null,
    ),
  );
}

/** On an instance without any account: the two ways to make the first administrator. */
function FirstAdministrator() {
  return h(
    'section',
    { class: 'notice first-run', 'aria-labelledby': 'first-run' },
    h('h2', { id: 'first-run' }, 'No account exists yet'),
    h('p', null, 'Make the first administrator with the setup link the service printed when it started (it looks like ', h('code', null, '…/setup#token=…'), ' and is in the service’s log too), or on the command line:'),
    h('pre', null, h('code', null, 'java -jar periscope.jar users create --id admin --email you@example.org --role admin')),
    h('p', null, 'Then sign in here with that address.'),
  );
}

/**
 * The first administrator, made through the one-time setup link the start printed. Once an account
 * exists the page is gone: it says so and leads to sign-in.
 */
export function Setup({ fragment }) {
  const [fields, setFields] = useState({ id: 'admin', email: '', password: '' });
  const status = useLoad(() => get('/config/status', { anonymous: true }));
  const { busy, error, act } = useAction();
  const form = useRef(null);
  const token = fragment?.token;
  const set = (k) => (v) => setFields((f) => ({ ...f, [k]: v }));
  const submit = () =>
    act(async () => {
      const session = await post('/auth/setup', { token, ...fields }, { anonymous: true });
      signIn(session.token);
      navigate('/administration/keys', { replace: true });
    });
  const title = 'Set up Periscope';
  if (!status.data) return h(Page, { title }, status.error ? h(ErrorMessage, { error: status.error }) : h('p', { class: 'loading', role: 'status' }, 'Loading…'));
  if (!status.data.setup)
    return h(Page, { title }, h('p', { role: 'status' }, 'This instance is set up already: its administrator signs in and makes the other accounts.'), h(Link, { href: '/sign-in', class: 'button primary' }, 'Go to sign in'));
  if (!token)
    return h(Page, { title }, h('p', { class: 'error', role: 'alert' }, 'This page needs the setup link the service printed when it started, with its token.'), h(Link, { href: '/sign-in' }, 'Other ways to make the first administrator'));
  return h(
    Page,
    { title },
    h('p', null, 'Make the first administrator of this instance. The link works once; after that, this page is gone.'),
    h(
      Form,
      { onSubmit: submit, formRef: form },
      // the service's refusal in a person's words, above the form, the focus on its first field
      h(FormErrors, { error, form, done: 'created' }),
      h(TextField, { label: 'Account id', value: fields.id, onInput: set('id'), issues: issuesAt(error, ['id']), hint: 'Letters, digits, “.”, “_” or “-”; it cannot be changed later.' }),
      h(TextField, { label: 'Email', type: 'email', autocomplete: 'username', value: fields.email, onInput: set('email'), issues: issuesAt(error, ['email']) }),
      h(TextField, { label: 'Password', type: 'password', autocomplete: 'new-password', value: fields.password, onInput: set('password'), issues: issuesAt(error, ['password']), hint: 'At least 8 characters; a long passphrase is best.' }),
      h(Button, { type: 'submit', kind: 'primary', busy }, 'Create administrator'),
    ),
  );
}

export function Register() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(null);
  const { busy, error, act } = useAction();
  const submit = () => act(async () => setDone(await post('/auth/register', { email, password }, { anonymous: true })));
  if (done)
    return h(Page, { title: 'Check your mail' }, h('p', { role: 'status' }, done.message || 'We mailed you a link to verify your address.'));
  return h(
    Page,
    { title: 'Create an account' },
    h(
      Form,
      { onSubmit: submit },
      h(TextField, { label: 'Email', type: 'email', autocomplete: 'username', value: email, onInput: setEmail, issues: issuesAt(error, ['email']) }),
      h(TextField, { label: 'Password', type: 'password', autocomplete: 'new-password', value: password, onInput: setPassword, issues: issuesAt(error, ['password']), hint: 'A long passphrase is best.' }),
      h(ErrorMessage, { error }),
      h(Button, { type: 'submit', kind: 'primary', busy }, 'Create account'),
    ),
    h('p', { class: 'links' }, h(Link, { href: '/sign-in' }, 'Back to sign in')),
  );
}

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, act } = useAction();
  const submit = () => act(async () => {
    await post('/auth/forgot-password', { email }, { anonymous: true });
    setDone(true);
  });
  if (done) return h(Page, { title: 'Check your mail' }, h('p', { role: 'status' }, 'If an account uses this address, we mailed it a link to choose a new password.'));
  return h(
    Page,
    { title: 'Forgot your password?' },
    h(
      Form,
      { onSubmit: submit },
      h(TextField, { label: 'Email', type: 'email', autocomplete: 'username', value: email, onInput: setEmail, issues: issuesAt(error, ['email']) }),
      h(ErrorMessage, { error }),
      h(Button, { type: 'submit', kind: 'primary', busy }, 'Mail me a link'),
    ),
  );
}

export function ResetPassword({ fragment }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, act } = useAction();
  const form = useRef(null);
  const token = fragment?.token;
  const submit = () => act(async () => {
    await post('/auth/reset-password', { token, password }, { anonymous: true });
    setDone(true);
  });
  if (!token) return h(Page, { title: 'Choose a new password' }, h('p', { class: 'error', role: 'alert' }, 'This page needs the link from your mail.'));
  if (done) return h(Page, { title: 'Password changed' }, h('p', { role: 'status' }, 'Your new password is set.'), h(Link, { href: '/sign-in', class: 'button primary' }, 'Sign in'));
  return h(
    Page,
    { title: 'Choose a new password' },
    h(
      Form,
      { onSubmit: submit },
      h(TextField, { label: 'New password', type: 'password', autocomplete: 'new-password', value: password, onInput: setPassword, issues: issuesAt(error, ['password']) }),
      h(ErrorMessage, { error }),
      h(Button, { type: 'submit', kind: 'primary', busy }, 'Set password'),
    ),
  );
}

/** A page that posts the mailed token as soon as it opens: verify-email, confirm-email-channel. */
function TokenPage({ fragment, title, path, done }) {
  const [state, setState] = useState({ busy: true });
  const token = fragment?.token;
  useEffect(() => {
    if (!token) return;
    api('POST', path, { token }, { anonymous: true }).then(
      (r) => setState({ result: r.body }),
      (error) => setState({ error }),
    );
  }, [token]);
  if (!token) return h(Page, { title }, h('p', { class: 'error', role: 'alert' }, 'This page needs the link from your mail.'));
  if (state.error) return h(Page, { title }, h(ErrorMessage, { error: state.error }), h(Link, { href: '/sign-in' }, 'Go to sign in'));
  if (!state.result) return h(Page, { title }, h('p', { class: 'loading', role: 'status' }, 'Checking the link…'));
  return h(Page, { title }, h('p', { role: 'status' }, done(state.result)), h(Link, { href: '/sign-in', class: 'button primary' }, 'Sign in'));
}

export const VerifyEmail = ({ fragment }) =>
  h(TokenPage, { fragment, title: 'Verify your address', path: '/auth/verify-email', done: (r) => `Thank you: ${r.user?.email || 'your address'} is verified.` });

/**
 * Linking gives a provider's account the run of this one, so opening the link only reads what it
 * would connect: a button that names the provider and the login there does it. A mail scanner that
 * opens links and runs their scripts links nothing.
 */
export function LinkIdentity({ fragment }) {
  const title = 'Connect a sign-in';
  const token = fragment?.token;
  const details = useLoad(() => (token ? post('/auth/link-identity/details', { token }, { anonymous: true }) : Promise.resolve(null)), [token]);
  const [linked, setLinked] = useState(false);
  const { busy, error, act } = useAction();
  if (!token) return h(Page, { title }, h('p', { class: 'error', role: 'alert' }, 'This page needs the link from your mail.'));
  if (details.error) return h(Page, { title }, h(ErrorMessage, { error: details.error }), h(Link, { href: '/sign-in' }, 'Go to sign in'));
  if (!details.data) return h(Page, { title }, h('p', { class: 'loading', role: 'status' }, 'Checking the link…'));
  if (linked) return h(Page, { title }, h('p', { role: 'status' }, 'The sign-in is connected to your account. Use it next time.'), h(Link, { href: '/sign-in', class: 'button primary' }, 'Sign in'));
  const provider = providerName(details.data.provider);
  const account = details.data.login ? `${provider} account ${details.data.login}` : `${provider} sign-in`;
  const connect = () =>
    act(async () => {
      await post('/auth/link-identity', { token }, { anonymous: true });
      setLinked(true);
    });
  return h(
    Page,
    { title },
    h('p', null, `Someone signed in through ${provider} with your address. If it was you, connect the ${account} to your Periscope account: it will then sign you in here. If it was not you, close this page; nothing is connected.`),
    h(ErrorMessage, { error }),
    h(Button, { kind: 'primary', busy, onClick: connect }, `Connect ${account}`),
  );
}

export const ConfirmEmailChannel = ({ fragment }) =>
  h(TokenPage, { fragment, title: 'Receive alerts at this address', path: '/auth/confirm-email-channel', done: (r) => `Alerts may now be sent to ${r.address || 'this address'}.` });
