// «Пункты» under a pickup-point rate (#21): the carrier's points of the recipient's town that take this
// parcel (points:search: weight, size, COD), nearest to the town's centre first, with address, hours,
// limits, distance and COD/card marks. The clerk chooses one (a radio group: ↑/↓ move the choice); it is
// carried into copy and export. When no point takes the parcel, the list says why instead of going blank.
import { useId, type ReactNode } from 'react';
import type { PickupPoint } from '../../../../core/contract/points';
import { useDeskQuery } from '../../api/hooks';
import { Badge, Button, EmptyState, ErrorState, LoadingState } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import type { QuoteAsk } from './draft';
import { formatKm, pointLimits, pointsQuery } from './points';

export function PointsPanel(props: {
  carrier: string;
  carrierName: string;
  shipment: QuoteAsk;
  chosen: PickupPoint | null;
  onChoose: (point: PickupPoint | null) => void;
  onClose: () => void;
}): ReactNode {
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const name = useId();
  const query = pointsQuery(props.carrier, props.shipment);
  const { state, reload } = useDeskQuery((api) => api.points.search(query), [JSON.stringify(query)]);
  const cod = (props.shipment.cod_kopecks ?? 0) > 0;
  const data = state.data;

  let body: ReactNode;
  if (state.status === 'error') {
    body = (
      <ErrorState
        error={state.error}
        title={tx('points.error')}
        onRetry={() => void reload()}
        data-testid="points-error"
      />
    );
  } else if (!data) {
    body = <LoadingState>{tx('points.loading')}</LoadingState>;
  } else if (data.points.length === 0) {
    body = (
      <EmptyState
        title={
          data.filtered_out > 0
            ? tx('points.allFiltered', { n: data.filtered_out, cod: cod ? 1 : '' })
            : tx('points.none')
        }
        data-testid="points-empty"
      />
    );
  } else {
    body = (
      <div
        className="points-list"
        role="radiogroup"
        aria-label={tx('points.choose')}
        data-testid="points-list"
      >
        {data.points.map((p) => {
          const limits = pointLimits(p, lang, {
            weight: (w) => tx('points.maxWeight', { weight: w }),
            dims: (d) => tx('points.maxDims', { dims: d }),
          });
          const chosen = props.chosen?.code === p.code;
          return (
            <label
              key={p.code}
              className={`point${chosen ? ' point-chosen' : ''}`}
              data-testid="point"
              data-code={p.code}
            >
              <input
                type="radio"
                name={name}
                checked={chosen}
                onChange={() => props.onChoose(p)}
                onKeyDown={(e) => {
                  // Enter on a point chooses it and closes the list (the form's Enter must not quote again).
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    e.stopPropagation();
                    props.onChoose(p);
                    props.onClose();
                  }
                }}
              />
              <span className="point-main">
                <span className="point-address">
                  <span className="point-kind">{tx(`points.kind.${p.kind}`)}</span> {p.address}
                </span>
                <span className="point-meta">
                  <span className="point-code">{p.code}</span>
                  {p.hours ? <span>{p.hours}</span> : null}
                  <span>{limits ?? <span className="muted">{tx('points.noLimits')}</span>}</span>
                </span>
              </span>
              <span className="point-side">
                {p.distance_km !== null ? (
                  <span className="point-distance">
                    {tx('points.distance', { km: formatKm(p.distance_km, lang) })}
                  </span>
                ) : null}
                <span className="point-marks">
                  {p.cod ? (
                    <Badge tone="ok" title={tx('points.codHint')}>
                      {tx('points.cod')}
                    </Badge>
                  ) : null}
                  {p.card ? (
                    <Badge tone="neutral" title={tx('points.cardHint')}>
                      {tx('points.card')}
                    </Badge>
                  ) : null}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    );
  }

  return (
    <div className="points-panel" data-testid="points-panel" onClick={(e) => e.stopPropagation()}>
      <div className="points-head">
        <strong>{tx('points.title', { carrier: props.carrierName, city: props.shipment.to.city })}</strong>
        {data?.directory_fetched_at ? (
          <span className="muted">
            {tx('points.fetched', { date: formatDateTime(data.directory_fetched_at, lang) })}
          </span>
        ) : null}
        <span className="spacer" />
        {props.chosen ? (
          <button
            type="button"
            className="link-button"
            onClick={() => props.onChoose(null)}
            data-testid="point-unchoose"
          >
            {tx('points.unchoose')}
          </button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={props.onClose} data-testid="points-close">
          {tx('points.close')}
        </Button>
      </div>
      {body}
      {data && data.points.length > 0 && data.filtered_out > 0 ? (
        <p className="points-filtered muted" data-testid="points-filtered">
          {tx('points.filtered', { n: data.filtered_out, cod: cod ? 1 : '' })}
        </p>
      ) : null}
    </div>
  );
}

/** The chosen point, one line under its rate while the list is closed. */
export function ChosenPoint(props: { point: PickupPoint; onChange: () => void }): ReactNode {
  const tx = useT('quoteExt');
  return (
    <div className="point-chosen-line" data-testid="point-chosen" onClick={(e) => e.stopPropagation()}>
      <span>{tx('points.chosen', { point: `${props.point.code}, ${props.point.address}` })}</span>{' '}
      <button type="button" className="link-button" onClick={props.onChange} data-testid="point-change">
        {tx('points.change')}
      </button>
    </div>
  );
}
