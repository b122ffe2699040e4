import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, useDataProvider, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { AmountField, useAmount } from '../common/money.tsx';

/** A new till with its opening balance. */
export function NewTill() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [opening, setOpening] = useState('0');
  const [problem, setProblem] = useState<string>();
  const minor = useAmount().parse(opening);
  const create = async () => {
    try {
      await dataProvider.call('/api/tills', { method: 'POST', body: { name, openingBalance: minor } });
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['tills'] });
    } catch (failed) {
      setProblem((failed as Error).message);
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 2 }}>
      <TextField
        size="small"
        label={translate('app.tills.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        id="till-new-name"
      />
      <AmountField
        size="small"
        label={translate('app.tills.opening_balance')}
        value={opening}
        onChange={(e) => setOpening(e.target.value)}
      />
      <Button
        label="app.tills.create"
        id="till-create"
        disabled={!name.trim() || minor === undefined}
        aria-label={translate('app.tills.create')}
        onClick={() => void create()}
      >
        <AddIcon />
      </Button>
      {problem && <Alert severity="error">{problem}</Alert>}
    </Box>
  );
}
