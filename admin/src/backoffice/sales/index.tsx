import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import { PaymentList } from '../accounting/PaymentList.tsx';

/** /sales: what customers paid the vendors, the ledger narrowed to sales and tips. */
export default {
  name: 'sales',
  list: function SalesList() {
    return <PaymentList sales />;
  },
  icon: PointOfSaleIcon,
};
