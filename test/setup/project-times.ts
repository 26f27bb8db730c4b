/**
 * A Vitest reporter that prints, at the end of a run, each project's wall time (first file
 * started to last file finished), its file count and the summed time of its files.
 */
import type { Reporter, TestModule } from 'vitest/node';

interface Span {
  start: number;
  end: number;
  files: number;
  busy: number;
}

export default class ProjectTimes implements Reporter {
  private readonly spans = new Map<string, Span>();
  private readonly started = new Map<string, number>();

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.id, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const now = Date.now();
    const start = this.started.get(module.id) ?? now;
    const name = module.project.name || 'default';
    const span = this.spans.get(name) ?? { start, end: now, files: 0, busy: 0 };
    span.start = Math.min(span.start, start);
    span.end = Math.max(span.end, now);
    span.files++;
    span.busy += module.diagnostic().duration;
    this.spans.set(name, span);
  }

  onTestRunEnd(): void {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    for (const [name, s] of [...this.spans].sort((a, b) => a[1].start - b[1].start)) {
      process.stdout.write(
        `[project time] ${name}: ${seconds(s.end - s.start)} wall, ${s.files} files, ${seconds(s.busy)} in files\n`,
      );
    }
  }
}
