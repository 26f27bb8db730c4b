/**
 * The MCP read tools about projects, runs and their activity (docs/api.md §17): each calls
 * the service and the view of its HTTP route and answers the route's JSON, bounded.
 */
import { z } from 'zod';
import { Value } from '@sinclair/typebox/value';
import { Project, ProjectList } from '../api/schemas/projects.js';
import { RunDetails, RunList } from '../api/schemas/runs.js';
import { AlertList, LogPage, type LogLine } from '../api/schemas/logs.js';
import { RunFileList } from '../api/schemas/files.js';
import { jsonStream, objectMembers } from '../api/sliced-json.js';
import { alertView } from '../api/views/activity-view.js';
import { fileView } from '../api/views/file-view.js';
import { projectView } from '../api/views/project-view.js';
import { runDetailsPieces, runRowView } from '../api/views/run-view.js';
import { CONSOLE_LOG_TYPES } from '../domain/types.js';
import { listRunFiles } from '../services/files.js';
import { listProjects } from '../services/projects.js';
import { listAlerts, listLogs, searchLogs } from '../services/run-activity.js';
import { getRunDetails } from '../services/run-details.js';
import { listRuns } from '../services/run-list.js';
import { boundedAnswer, parsedAnswer } from './tool-kit.js';
import { arg, commaText, narrowingArgs, outputOf, stepRange } from './tool-schemas.js';
import { tool } from './tool-spec.js';

const optProject = arg.project.optional().describe('the run must be in this project (optional)');

export const listProjectsTool = tool({
  name: 'list_projects',
  description: "The organization's projects, newest first, each with its run count.",
  access: 'read',
  input: { limit: arg.limit(1000, 100), offset: arg.offset },
  output: outputOf(ProjectList),
  async run(ctx, { limit, offset }, budget) {
    const projects = await listProjects(ctx);
    // The route's response schema is its allow-list (the stored project has more fields).
    const page = projects.slice(offset, offset + limit).map((p) => Value.Clean(Project, projectView(p)) as Project);
    return boundedAnswer({ projects: page }, 'projects', { offset, total: projects.length }, budget);
  },
});

export const searchRunsTool = tool({
  name: 'search_runs',
  description:
    "A page of a project's runs matching a search, as GET /api/runs/list answers it: the filter language " +
    '(config.*, summary_metrics.*, status, tags, name, createdAt ...), a sort such as "-summary_metrics.val/acc", ' +
    'only the config keys asked for, and summaries (last, min, max, mean, count) of the metrics asked for.',
  access: 'read',
  input: {
    projectName: arg.project,
    ...narrowingArgs,
    sort: z.string().max(1024).optional().describe('a field with - (descending) or + prefix; default -createdAt'),
    limit: arg.limit(200, 20),
    offset: arg.offset,
    configKeys: z
      .array(z.string().min(1).max(1024))
      .max(200)
      .optional()
      .describe(
        'dotted config keys to answer (e.g. ["lr", "optimizer.beta1"]); [] for none; omitted: the whole config',
      ),
    metrics: z.array(z.string().min(1).max(1024)).max(20).optional().describe('metric names to summarise per run'),
  },
  output: outputOf(RunList),
  async run(ctx, a, budget) {
    const q = { ...a, tags: commaText(a.tags), status: commaText(a.status), metrics: commaText(a.metrics) };
    const { total, batches } = await listRuns(ctx, { ...q, configKeys: commaText(a.configKeys) });
    const { publicUrl } = ctx.deps.config;
    const runs = objectMembers(batches, (row) => runRowView(row, publicUrl, ctx.principal.orgSlug));
    const answer = await parsedAnswer<RunList>(jsonStream<RunList>({ runs, total }));
    return boundedAnswer(answer, 'runs', { offset: a.offset, total }, budget);
  },
});

export const getRunTool = tool({
  name: 'get_run',
  description:
    'A run with its config, system metadata, notes, tags, status and log names (metrics, files, data), ' +
    'as GET /api/runs/details/{runId} answers it.',
  access: 'read',
  input: { runId: arg.runId },
  output: outputOf(RunDetails),
  async run(ctx, { runId }, budget) {
    const details = await getRunDetails(ctx, { runId });
    const pieces = runDetailsPieces(details, ctx.deps.config.publicUrl, ctx.principal.orgSlug);
    const answer = await parsedAnswer<RunDetails>(pieces);
    return boundedAnswer(answer, 'logNames', { offset: 0, total: answer.logNames.length }, budget);
  },
});

export const getLogsTool = tool({
  name: 'get_logs',
  description:
    "A page of a run's console lines in the order they were written (as GET /api/runs/logs), optionally of one " +
    'type, containing a text (ASCII letters folded), in a step range or `around` a step ± a window.',
  access: 'read',
  input: {
    runId: arg.runId,
    projectName: optProject,
    logType: z.enum(CONSOLE_LOG_TYPES).optional().describe('only lines of this type'),
    contains: z.string().min(1).max(1024).optional().describe('only lines whose message contains this text'),
    stepMin: arg.step.optional().describe('only lines logged at this step or later'),
    stepMax: arg.step.optional().describe('only lines logged at this step or earlier'),
    around: arg.around,
    limit: arg.limit(1000, 200),
    offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).describe('lines to skip (paging)'),
  },
  output: outputOf(LogPage),
  async run(ctx, q, budget) {
    const steps = stepRange(q);
    const narrowed = q.contains !== undefined || steps.stepMin !== undefined || steps.stepMax !== undefined;
    const { lines, total } = narrowed
      ? await searchLogs(ctx, {
          ...q,
          logType: q.logType ?? null,
          contains: q.contains ?? null,
          stepMin: steps.stepMin ?? null,
          stepMax: steps.stepMax ?? null,
        })
      : await listLogs(ctx, q);
    // The store writes each line's JSON text in LogLine's shape, as the route sends it.
    const logs = lines.map((text) => JSON.parse(text) as LogLine);
    return boundedAnswer({ logs }, 'logs', { offset: q.offset, total }, budget);
  },
});

export const listFilesTool = tool({
  name: 'list_files',
  description:
    "A run's uploaded files by step, sample index and name, each with a signed download link valid 5 days " +
    '(as GET /api/runs/files answers them).',
  access: 'read',
  input: {
    runId: arg.runId,
    projectName: optProject,
    logName: z.string().max(1024).optional().describe('only files of this log name'),
    logGroup: z.string().max(1024).optional().describe('only files of this group'),
    limit: arg.limit(1000, 100),
    offset: arg.offset,
  },
  output: outputOf(RunFileList),
  async run(ctx, q, budget) {
    // One more than the page, to know whether more follow (the listing has no count).
    const records = await listRunFiles(ctx, { ...q, limit: q.limit + 1 });
    const more = records.length > q.limit;
    const files = records.slice(0, q.limit).map(fileView);
    const total = more ? null : q.offset + files.length;
    return boundedAnswer({ files }, 'files', { offset: q.offset, total, more }, budget);
  },
});

export const listAlertsTool = tool({
  name: 'list_alerts',
  description: "A run's alerts (from the client or from alert rules), oldest first.",
  access: 'read',
  input: { runId: arg.runId, limit: arg.limit(1000, 100), offset: arg.offset },
  output: outputOf(AlertList),
  async run(ctx, { runId, limit, offset }, budget) {
    const alerts = await listAlerts(ctx, runId);
    const page = alerts.slice(offset, offset + limit).map(alertView);
    return boundedAnswer({ runId, alerts: page }, 'alerts', { offset, total: alerts.length }, budget);
  },
});
