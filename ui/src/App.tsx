import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useSession } from './api/session';
import { Layout } from './components/Layout';
import { RequireSession } from './components/RequireSession';
import { lazyPage } from './components/lazy-page';
import { Loading } from './components/States';
import { AccountPage } from './pages/AccountPage';
import { ApiKeysPage } from './pages/ApiKeysPage';
import { ConsentPage } from './pages/ConsentPage';
import { JoinPage } from './pages/JoinPage';
import { MembersPage } from './pages/MembersPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProjectSettingsPage } from './pages/ProjectSettingsPage';
import { ProjectsPage } from './pages/ProjectsPage';
import { RunsPage } from './pages/RunsPage';
import { SignInPage } from './pages/SignInPage';
import { TrashPage } from './pages/TrashPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { projectsPath } from './paths';

// The chart pages carry uPlot: their code is its own chunk, so the sign-in page does not wait
// for it, yet its download starts at once, beside the session check, not after it.
const RunPage = lazyPage(import('./pages/RunPage').then((m) => m.RunPage));
const ComparePage = lazyPage(import('./pages/ComparePage').then((m) => m.ComparePage));

/** `/` goes to the signed-in organization's projects. */
function Home() {
  const session = useSession();
  if (!session.data) return <Loading />;
  return <Navigate to={projectsPath(session.data.organization.slug)} replace />;
}

/** The dashboard's pages; every page but sign-in and join needs a session (consent has no layout). */
export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/join" element={<JoinPage />} />
      <Route
        path="/consent/:uid"
        element={
          <RequireSession>
            <ConsentPage />
          </RequireSession>
        }
      />
      <Route
        element={
          <RequireSession>
            <Layout />
          </RequireSession>
        }
      >
        <Route index element={<Home />} />
        <Route path="/api-keys" element={<ApiKeysPage />} />
        <Route path="/webhooks" element={<WebhooksPage />} />
        <Route path="/members" element={<MembersPage />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="/o/:org/projects" element={<ProjectsPage />} />
        <Route path="/o/:org/projects/:project" element={<RunsPage />} />
        <Route path="/o/:org/projects/:project/trash" element={<TrashPage />} />
        <Route path="/o/:org/projects/:project/settings" element={<ProjectSettingsPage />} />
        <Route
          path="/o/:org/projects/:project/compare"
          element={
            <Suspense fallback={<Loading />}>
              <ComparePage />
            </Suspense>
          }
        />
        <Route
          path="/o/:org/projects/:project/:sqid"
          element={
            <Suspense fallback={<Loading />}>
              <RunPage />
            </Suspense>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
