import { useId, useMemo, useRef, useState } from 'react';
import { swatchCss } from '../charts/run-colors';
import { useManyMediaFiles } from '../api/media-queries';
import type { RunFile } from '@server/api/schemas/files';
import { ErrorState, Loading } from '../components/States';
import { FollowChartStepToggle } from '../media/FollowChartStepToggle';
import { ImageLightbox } from '../media/ImageLightbox';
import { MediaItemView } from '../media/MediaItemView';
import { type MediaGroup, type MediaItem, mediaGroups, stepIndex } from '../media/media-model';
import { setFollowChartStep, useFollowedStep } from '../media/follow-chart-step';
import { StepSlider } from '../media/StepSlider';
import type { ColoredRun } from './CompareRunList';
import '../media/media.css';

/** Image log names of the runs, as a set per run. */
const imageNamesOf = (runs: readonly ColoredRun[]): Set<string>[] =>
  runs.map((r) => new Set(r.run.logNames.filter((n) => n.logType === 'IMAGE').map((n) => n.logName)));

/** Image log names any compared run has (of two or more runs), sorted. */
function anyImageNames(perRun: readonly Set<string>[]): string[] {
  if (perRun.length < 2) return [];
  return [...new Set(perRun.flatMap((names) => [...names]))].sort();
}

/**
 * One image log name: a step slider over every run's steps, the step's images in one column
 * per run; a run that never logged it gets an empty column ("No image").
 */
function CompareImageRow({
  logName,
  runs,
  groups,
}: {
  logName: string;
  runs: ColoredRun[];
  groups: (MediaGroup | undefined)[];
}) {
  const id = useId();
  const steps = useMemo(() => [...new Set(groups.flatMap((g) => g?.steps ?? []))].sort((a, b) => a - b), [groups]);
  const [step, setStep] = useState<number | null>(null);
  const [open, setOpen] = useState<MediaItem | null>(null);
  const trigger = useRef<HTMLButtonElement | null>(null);
  const followed = useFollowedStep();
  const index = stepIndex(steps, followed ?? step);
  const shown = steps[index];
  return (
    <section className="media-group card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="mono compare-media-title">
        {logName}
      </h3>
      {steps.length === 0 ? (
        <p className="muted">No images have arrived yet.</p>
      ) : (
        <>
          <StepSlider
            steps={steps}
            index={index}
            onIndex={(i) => {
              // Moving the slider by hand stops following the chart.
              setFollowChartStep(false);
              setStep(steps[Math.max(0, Math.min(i, steps.length - 1))] ?? null);
            }}
            name={logName}
          />
          <div className="compare-media-runs">
            {runs.map(({ run, style }, i) => {
              const group = groups[i];
              const items = shown === undefined ? [] : (group?.byStep.get(shown) ?? []);
              return (
                <div key={run.id} className="compare-media-run" role="group" aria-label={`${run.name}, step ${shown}`}>
                  <h4>
                    <span className="compare-media-swatch" style={swatchCss(style)} aria-hidden="true" />
                    {run.name}
                  </h4>
                  {!group ? (
                    <p className="muted">No image</p>
                  ) : items.length === 0 ? (
                    <p className="muted">No image at step {shown}.</p>
                  ) : (
                    <div className="media-grid">
                      {items.map((item) => (
                        <MediaItemView
                          key={`${item.sample}\u0000${item.file.fileName}`}
                          item={item}
                          kind="IMAGE"
                          logName={`${logName} (${run.name})`}
                          onOpen={(it, el) => {
                            trigger.current = el;
                            setOpen(it);
                          }}
                        />
                      ))}
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        </>
      )}
      {open && (
        <ImageLightbox
          item={open}
          title={logName}
          onClose={() => {
            setOpen(null);
            trigger.current?.focus();
          }}
        />
      )}
    </section>
  );
}

/**
 * The compare page's Media section: for each image log name any chosen run has, the same
 * step side by side (one column per run, one slider). Nothing when none has images.
 */
export function CompareMedia({ runs }: { runs: ColoredRun[] }) {
  const has = useMemo(() => imageNamesOf(runs), [runs]);
  const names = useMemo(() => anyImageNames(has), [has]);
  const results = useManyMediaFiles(
    runs.map((r) => r.run),
    names.length > 0,
  );
  const pending = results.some((r) => r.isPending);
  const failed = results.find((r) => r.isError);
  // Cheap to regroup on each render (a few hundred files at most per run).
  const perRun = runs.map(({ run }, i) => mediaGroups(run.logNames, results[i]?.data ?? ([] as RunFile[])));
  if (names.length === 0) return null;
  return (
    <section aria-labelledby="compare-media-title">
      <div className="media-toolbar compare-media-head">
        <h2 id="compare-media-title">Media</h2>
        <FollowChartStepToggle />
      </div>
      {failed ? (
        <ErrorState error={failed.error} onRetry={() => void failed.refetch()} />
      ) : pending ? (
        <Loading label="Loading images…" />
      ) : (
        <div className="media-panel">
          {names.map((name) => (
            <CompareImageRow
              key={name}
              logName={name}
              runs={runs}
              groups={perRun.map((gs, i) =>
                has[i]!.has(name) ? (gs.find((g) => g.logName === name) ?? emptyGroup(name)) : undefined,
              )}
            />
          ))}
        </div>
      )}
    </section>
  );
}

const emptyGroup = (logName: string): MediaGroup => ({ logName, kind: 'IMAGE', steps: [], byStep: new Map() });
