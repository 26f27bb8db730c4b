import { Link } from 'react-router';
import { CopyBlock } from './CopyBlock';
import './snippet.css';

/** Python string literal of a project name. */
const pyString = (s: string): string => JSON.stringify(s);

/**
 * How to log runs to this server with the `pluto-ml` Python client: its PLUTO_URL_*
 * variables pointing at this page's origin, then `pluto.init(project=...)`.
 */
export function LoggingSnippet({ project }: { project?: string }) {
  const origin = window.location.origin;
  const shell = [
    'pip install "pluto-ml[full]"',
    `export PLUTO_URL_APP=${origin}`,
    `export PLUTO_URL_API=${origin}`,
    `export PLUTO_URL_INGEST=${origin}`,
    `export PLUTO_URL_PY=${origin}`,
    'export PLUTO_API_KEY=<your API key>',
  ].join('\n');
  const python = [
    'import pluto',
    '',
    `run = pluto.init(project=${pyString(project ?? 'my-project')}, name="first-run", config={"lr": 0.001})`,
    'for step in range(100):',
    '    run.log({"train/loss": 1.0 / (step + 1)})',
    'run.finish()',
  ].join('\n');
  return (
    <div className="logging-snippet">
      <ol className="snippet-steps">
        <li>
          <p>Point the client at this server and give it an API key:</p>
          <CopyBlock label="Environment" code={shell} />
        </li>
        <li>
          <p>Log a run from Python; it appears here as soon as it starts:</p>
          <CopyBlock label="Python" code={python} />
        </li>
      </ol>
      <p className="muted small-text">
        Keys come from <code>stepwise keys create --org &lt;slug&gt; --data &lt;dir&gt;</code> on the server or from the{' '}
        <Link to="/api-keys">API keys</Link> page.
      </p>
    </div>
  );
}
