import SaveIcon from '@mui/icons-material/Save';
import { Alert, Box, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, useDataProvider, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import type { Till } from './CashDay.tsx';

const fields = ['name', 'street', 'postcode', 'town'] as const;

/** Where the till stands, as the tax office's export names it; an empty field is the paper's address. */
export function TillLocation({ till }: { till: Till }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const [location, setLocation] = useState(till.location);
  const [saved, setSaved] = useState(false);
  const [problem, setProblem] = useState<string>();
  const save = async () => {
    setProblem(undefined);
    setSaved(false);
    try {
      await dataProvider.call(`/api/tills/${till.id}/location`, { method: 'PUT', body: location });
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: ['tills'] });
    } catch (failed) {
      setProblem((failed as Error).message);
    }
  };
  return (
    <Box component="section" aria-labelledby="till-location-heading" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h3" id="till-location-heading">
        {translate('app.tills.location')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.tills.location_hint')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        {fields.map((field) => (
          <TextField
            key={field}
            size="small"
            id={`till-location-${field}`}
            label={translate(`app.tills.location_${field}`)}
            value={location[field]}
            onChange={(e) => setLocation({ ...location, [field]: e.target.value })}
          />
        ))}
        <Button
          label="app.tills.location_save"
          id="till-location-save"
          aria-label={translate('app.tills.location_save')}
          onClick={() => void save()}
        >
          <SaveIcon />
        </Button>
      </Box>
      <Box aria-live="polite">
        {saved && <Typography sx={{ mt: 1 }}>{translate('app.tills.location_saved')}</Typography>}
      </Box>
      {problem && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {problem}
        </Alert>
      )}
    </Box>
  );
}
