import { useState } from 'react';
import { Popover } from './Popover';
import { Field } from './Field';

/**
 * "Filter JSON" drop-down: the API's MongoDB-style filter, for what the builder cannot say.
 * It closes once applied; `open`/`onOpenChange` let the page open it to edit a refused filter.
 */
export function FilterJson({
  value,
  onApply,
  open,
  onOpenChange,
}: {
  value: string;
  onApply: (filter: string) => void;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [text, setText] = useState(value);
  const [problem, setProblem] = useState('');
  return (
    <Popover label="Filter JSON" align="right" open={open} onOpenChange={onOpenChange}>
      {(close) => (
        <form
          className="filter-json"
          onSubmit={(e) => {
            e.preventDefault();
            const trimmed = text.trim();
            if (trimmed !== '') {
              try {
                JSON.parse(trimmed);
              } catch {
                setProblem('This is not valid JSON.');
                return;
              }
            }
            setProblem('');
            onApply(trimmed);
            close();
          }}
        >
          <Field label="Filter JSON">
            {(id) => (
              <>
                <textarea
                  id={id}
                  rows={5}
                  spellCheck={false}
                  className="mono"
                  value={text}
                  placeholder={'{"$or": [{"config.lr": {"$lt": 0.001}}, {"summary_metrics.val/acc": {"$gt": 0.9}}]}'}
                  onFocus={() => {
                    if (text === '' && value !== '') setText(value);
                  }}
                  onChange={(e) => setText(e.target.value)}
                />
              </>
            )}
          </Field>
          <p className="muted small-text">
            Fields: name, status, tags, createdAt, updatedAt, heartbeat_at, config.&lt;key&gt;,
            systemMetadata.&lt;key&gt;, summary_metrics.&lt;metric&gt; (last value), summary_min.&lt;metric&gt;,
            summary_max.&lt;metric&gt;, summary_mean.&lt;metric&gt;; operators $eq $ne $gt $gte $lt $lte $in $nin $regex
            $exists $not, combined with $and / $or.
          </p>
          {problem && (
            <p className="form-problem" role="alert">
              {problem}
            </p>
          )}
          <button type="submit">Apply JSON</button>
        </form>
      )}
    </Popover>
  );
}
