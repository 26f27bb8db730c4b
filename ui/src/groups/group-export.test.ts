import { describe, expect, it } from 'vitest';
import { groupChartCsv } from './group-export';
import { groupChartModel } from './group-chart-model';

describe('grouped chart CSV', () => {
  it('has one row per group and bucket, the group key quoted when it holds a comma', () => {
    const model = groupChartModel(
      {
        projectName: 'p',
        groupBy: ['config.lr', 'config.optimizer'],
        logName: 'loss',
        total: 2,
        groups: [
          {
            key: { 'config.lr': 0.01, 'config.optimizer': 'adamw' },
            runCount: 2,
            points: [
              { step: 0, stepEnd: 9, n: 2, mean: 1, std: 0.5, stderr: 0.25, min: 0.5, max: 1.5 },
              { step: 10, stepEnd: 19, n: 1, mean: 2, std: null, stderr: null, min: 2, max: 2 },
            ],
          },
          {
            key: { 'config.lr': 0.1, 'config.optimizer': 'sgd' },
            runCount: 1,
            points: [{ step: 10, stepEnd: 19, n: 1, mean: 3, std: null, stderr: null, min: 3, max: 3 }],
          },
        ],
      },
      'std',
    );
    expect(groupChartCsv(model).split('\n')).toEqual([
      'group,step,stepEnd,n,mean,std,stderr,min,max',
      '"lr=0.01, adamw",0,9,2,1,0.5,0.25,0.5,1.5',
      '"lr=0.01, adamw",10,19,1,2,,,2,2',
      '"lr=0.1, sgd",10,19,1,3,,,3,3',
      '',
    ]);
  });
});
