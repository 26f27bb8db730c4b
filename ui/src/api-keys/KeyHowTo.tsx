import { CopyBlock } from '../projects/CopyBlock';

/** How the `pluto` client gets and uses a key: `pluto.login()` opens this page, or PLUTO_API_KEY. */
export function KeyHowTo() {
  const origin = window.location.origin;
  const shell = [
    `export PLUTO_URL_APP=${origin} PLUTO_URL_API=${origin}`,
    `export PLUTO_URL_INGEST=${origin} PLUTO_URL_PY=${origin}`,
    'export PLUTO_API_KEY=<the new key>   # scripts and CI: no prompt',
  ].join('\n');
  const python = ['import pluto', '', 'pluto.login()  # opens this page, then asks for the key'].join('\n');
  return (
    <section className="card api-keys-howto" aria-labelledby="api-keys-howto-title">
      <h2 id="api-keys-howto-title">Using a key</h2>
      <p>
        With the <code>pluto</code> Python client pointed at this server, <code>pluto.login()</code> opens this page:
        create a key, copy it and paste it at the client’s <q>Enter API key</q> prompt; the client keeps it in the
        system keyring. In scripts and CI, set <code>PLUTO_API_KEY</code> instead.
      </p>
      <CopyBlock label="Environment" code={shell} />
      <CopyBlock label="Python" code={python} />
      <p className="muted">
        Any other client sends the key as <code>Authorization: Bearer &lt;key&gt;</code>. A key acts as the user who
        created it, in this organization.
      </p>
    </section>
  );
}
