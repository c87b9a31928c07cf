import { Anchor, Paper, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { CarForm, EMPTY_CAR, carValues } from './car-form.tsx';
import { addCar, fleetKeys } from './fleet-api.ts';
import { NotAllowed } from './not-allowed.tsx';

/** Adding one car (managers): the same checks as a CSV row; on success, the new car's page. */
export function AddCarPage() {
  useTitle('Add a car');
  const can = useCan();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: (draft: typeof EMPTY_CAR) => addCar({ vin: draft.vin.trim(), ...carValues(draft) }),
    onSuccess: (car) => {
      void queryClient.invalidateQueries({ queryKey: fleetKeys.all });
      void navigate(paths.fleetCar(car.id), {
        state: { notice: `${car.year} ${car.model} ${car.vin} is in the fleet.` },
      });
    },
  });
  if (!can('cars.create')) return <NotAllowed title="Add a car" what="adding cars" />;
  return (
    <Stack>
      <Anchor component={Link} to={paths.fleet} size="sm">
        ← Fleet
      </Anchor>
      <Title order={1}>Add a car</Title>
      <Paper withBorder p="md" maw={720}>
        <CarForm
          initial={EMPTY_CAR}
          withVin
          submitLabel="Add the car"
          pending={add.isPending}
          error={add.error}
          onSubmit={(draft) => add.mutate(draft)}
        />
      </Paper>
    </Stack>
  );
}
