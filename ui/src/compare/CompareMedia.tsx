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

/** Image log names every compared run has, sorted. */
function sharedImageNames(runs: readonly ColoredRun[]): string[] {
  const [first, ...rest] = runs;
  if (!first || rest.length === 0) return [];
  const names = (r: ColoredRun) => new Set(r.run.logNames.filter((n) => n.logType === 'IMAGE').map((n) => n.logName));
  const sets = rest.map(names);
  return [...names(first)].filter((n) => sets.every((s) => s.has(n))).sort();
}

/** One shared image log name: a step slider over every run's steps, the step's images in one column per run. */
function CompareImageRow({ logName, runs, groups }: { logName: string; runs: ColoredRun[]; groups: MediaGroup[] }) {
  const id = useId();
  const steps = useMemo(() => [...new Set(groups.flatMap((g) => g.steps))].sort((a, b) => a - b), [groups]);
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
              const items = shown === undefined ? [] : (groups[i]?.byStep.get(shown) ?? []);
              return (
                <div key={run.id} className="compare-media-run" role="group" aria-label={`${run.name}, step ${shown}`}>
                  <h4>
                    <span className="compare-media-swatch" style={swatchCss(style)} aria-hidden="true" />
                    {run.name}
                  </h4>
                  {items.length === 0 ? (
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
 * The compare page's Media section: for each image log name all chosen runs share, the same
 * step side by side (one column per run, one slider). Nothing when they share none.
 */
export function CompareMedia({ runs }: { runs: ColoredRun[] }) {
  const names = useMemo(() => sharedImageNames(runs), [runs]);
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
              groups={perRun.map((gs) => gs.find((g) => g.logName === name) ?? emptyGroup(name))}
            />
          ))}
        </div>
      )}
    </section>
  );
}

const emptyGroup = (logName: string): MediaGroup => ({ logName, kind: 'IMAGE', steps: [], byStep: new Map() });
