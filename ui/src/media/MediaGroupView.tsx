import { useId, useRef, useState } from 'react';
import { Empty } from '../components/States';
import { ImageLightbox } from './ImageLightbox';
import { MediaItemView } from './MediaItemView';
import { type MediaGroup, type MediaItem, stepIndex } from './media-model';
import { setFollowChartStep, useFollowedStep } from './follow-chart-step';
import { StepSlider } from './StepSlider';

/**
 * One log name: a step slider and the files of the chosen step. Until a step is chosen it
 * follows the latest step (new steps of a running run show up as they arrive).
 */
export function MediaGroupView({ group }: { group: MediaGroup }) {
  const id = useId();
  const [step, setStep] = useState<number | null>(null);
  const [open, setOpen] = useState<MediaItem | null>(null);
  const trigger = useRef<HTMLButtonElement | null>(null);
  const followed = useFollowedStep();
  const index = stepIndex(group.steps, followed ?? step);
  const shownStep = group.steps[index];
  const items = shownStep === undefined ? [] : (group.byStep.get(shownStep) ?? []);
  const kindName = group.kind === 'IMAGE' ? 'images' : group.kind === 'AUDIO' ? 'audio' : 'video';

  return (
    <section className="media-group card" aria-labelledby={`${id}-title`}>
      <div className="media-group-head">
        <h3 id={`${id}-title`} className="mono">
          {group.logName}
        </h3>
        <span className="tag">{kindName}</span>
      </div>
      {group.steps.length === 0 ? (
        <Empty title="No files yet">Files logged under {group.logName} show here once their upload finishes.</Empty>
      ) : (
        <>
          <StepSlider
            steps={group.steps}
            index={index}
            onIndex={(i) => {
              // Moving the slider by hand stops following the chart.
              setFollowChartStep(false);
              setStep(group.steps[Math.max(0, Math.min(i, group.steps.length - 1))] ?? null);
            }}
            name={group.logName}
          />
          <div
            className={`media-grid media-grid-${group.kind.toLowerCase()}`}
            aria-label={`Step ${shownStep}`}
            role="group"
          >
            {items.map((item) => (
              <MediaItemView
                key={`${item.file.step}\u0000${item.sample}\u0000${item.file.fileName}`}
                item={item}
                kind={group.kind}
                logName={group.logName}
                onOpen={(it, el) => {
                  trigger.current = el;
                  setOpen(it);
                }}
              />
            ))}
          </div>
        </>
      )}
      {open && (
        <ImageLightbox
          item={open}
          title={group.logName}
          onClose={() => {
            setOpen(null);
            trigger.current?.focus();
          }}
        />
      )}
    </section>
  );
}
