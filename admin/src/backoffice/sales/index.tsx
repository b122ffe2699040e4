import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import { loadable } from '../common/loadable.tsx';

/** /sales: what customers paid the vendors, the ledger narrowed to sales and tips. */
export default {
  name: 'sales',
  list: loadable(() =>
    import('../accounting/PaymentList.tsx').then(
      ({ PaymentList }) =>
        function SalesList() {
          return <PaymentList sales />;
        },
    ),
  ),
  icon: PointOfSaleIcon,
};
