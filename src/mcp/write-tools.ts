/**
 * The MCP write tools (docs/api.md §17): the member role, and for an access token the scope
 * `runs:write`. Each calls the service of its HTTP route.
 */
import { Type } from '@sinclair/typebox';
import { z } from 'zod';
import { stopRun } from '../services/run-admin.js';
import { updateNotes, updateTags } from '../services/run-updates.js';
import { arg, plainOutput } from './tool-schemas.js';
import { tool } from './tool-spec.js';

const Written = Type.Object({ success: Type.Literal(true), runId: Type.Integer() });

export const updateTagsTool = tool({
  name: 'update_tags',
  description: "Replaces a run's tags (as POST /api/runs/tags/update): at most 100, each 1 to 256 characters.",
  access: 'write',
  input: { runId: arg.runId, tags: z.array(z.string().min(1).max(256)).max(100).describe('the new tags') },
  output: plainOutput(Written),
  async run(ctx, { runId, tags }) {
    await updateTags(ctx, runId, tags);
    return { success: true, runId };
  },
});

export const updateNotesTool = tool({
  name: 'update_notes',
  description: "Replaces a run's notes (as POST /api/runs/notes/update); null clears them.",
  access: 'write',
  input: {
    runId: arg.runId,
    notes: z.string().max(10_000).nullable().describe('the new notes (at most 10,000 characters)'),
  },
  output: plainOutput(Written),
  async run(ctx, { runId, notes }) {
    await updateNotes(ctx, runId, notes);
    return { success: true, runId };
  },
});

export const stopRunTool = tool({
  name: 'stop_run',
  description:
    'Stops a RUNNING run as POST /api/runs/stop does: CANCELLED with source `user`; the client exits on its next ' +
    'heartbeat. A run that is not RUNNING is refused (CONFLICT).',
  access: 'write',
  input: { runId: arg.runId },
  output: plainOutput(Type.Object({ ...Written.properties, status: Type.String() })),
  async run(ctx, { runId }) {
    const run = await stopRun(ctx, runId);
    return { success: true, runId, status: run.status };
  },
});
